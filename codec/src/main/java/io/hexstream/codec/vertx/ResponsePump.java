package io.hexstream.codec.vertx;

import io.hexstream.codec.json.JsonBodyInput;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.Promise;
import io.vertx.core.VertxException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * One response being written by {@link VertxJsonBodyWriter}: the head, then chunks from the input while the write queue
 * has room, resumed by the drain handler, then the end. Runs on one Vert.x context: its methods and every callback it
 * registers run there, one at a time.
 */
final class ResponsePump {
    private final HttpServerResponse response;
    private final JsonBodyInput input;
    private final ByteBufAllocator allocator;
    private final Promise<Void> done;
    /** Set once the outcome is decided: the last chunk handed on, or a failure. */
    private boolean finished;

    ResponsePump(HttpServerResponse response, JsonBodyInput input, ByteBufAllocator allocator, Promise<Void> done) {
        this.response = response;
        this.input = input;
        this.allocator = allocator;
        this.done = done;
    }

    void start() {
        try {
            if (response.ended() || response.closed()) {
                fail(new IllegalStateException("the response is already " + (response.ended() ? "ended" : "closed")));
                return;
            }
            response.putHeader(HttpHeaders.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                    .putHeader(HttpHeaders.CONTENT_LENGTH, Long.toString(input.length()))
                    .closeHandler(v -> fail(new VertxException("connection closed", true)));
        } catch (RuntimeException e) {
            fail(e);
            return;
        }
        pump();
    }

    /** Writes chunks until the write queue is full (then waits for its drain) or the body is all handed on. */
    private void pump() {
        while (!finished) {
            if (response.writeQueueFull()) {
                response.drainHandler(v -> pump());
                return;
            }
            ByteBuf chunk;
            try {
                chunk = input.readChunk(allocator);
            } catch (RuntimeException | Error e) {
                fail(e);
                return;
            }
            if (chunk == null) {
                end();
                return;
            }
            write(chunk);
        }
    }

    private void write(ByteBuf chunk) {
        try {
            response.write(Buffer.buffer(chunk)).onComplete(written -> {
                chunk.release();
                if (written.failed()) {
                    fail(written.cause());
                }
            });
        } catch (RuntimeException e) {
            chunk.release();
            fail(e);
        }
    }

    private void end() {
        finished = true;
        input.close();
        try {
            response.drainHandler(null);
            response.end().onComplete(ended -> {
                response.closeHandler(null);
                if (ended.succeeded()) {
                    done.tryComplete();
                } else {
                    done.tryFail(ended.cause());
                }
            });
        } catch (RuntimeException e) { // the connection closed under us
            done.tryFail(e);
        }
    }

    /** Gives up: releases the body and, if the response was under way, closes its connection. */
    private void fail(Throwable cause) {
        input.close();
        done.tryFail(cause);
        if (!finished) {
            finished = true;
            response.drainHandler(null);
            if (!response.closed() && !response.ended()) {
                response.reset();
            }
        }
    }
}
