package io.hexstream.codec.vertx;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.netty.buffer.ByteBufAllocator;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;

/**
 * Streams a {@link JsonBody} as the whole body of a Vert.x {@link HttpServerResponse}: {@code Content-Type:
 * application/json}, {@code Content-Length} = {@link JsonBody#length()} (exact, no chunked encoding), then the body in
 * pooled direct chunks handed to Vert.x without a copy, written while the response's write queue is not full and
 * resumed on its drain handler, so at most the write queue's maximum (for HTTP/1.x, the channel's high water mark) plus
 * one chunk is outstanding; then the response is ended.
 *
 * <pre>
 * router.post("/").handler(ctx -&gt; VertxJsonBodyWriter.write(ctx.response(), body));
 * </pre>
 *
 * <p>Ownership: takes one reference to {@code body} and releases it on success, on failure and when the connection
 * closes; each chunk is released when its write completes or fails (Vert.x never releases a buffer it is given). Sets
 * the response's {@code drainHandler} and {@code closeHandler}.
 *
 * <p>Threads: call it from a Vert.x context, on the event loop (a request handler) or on a worker thread
 * ({@code executeBlocking}, a worker verticle); the chunks are produced and written on that context, never
 * concurrently. Called elsewhere, the body is released and the future fails with an {@link IllegalStateException}.
 */
public final class VertxJsonBodyWriter {
    /**
     * Default chunk size: 256 KiB, {@link JsonBodyInput#DEFAULT_CHUNK_SIZE}. Vert.x allocates a few hundred bytes per
     * write (a promise, a buffer wrapper, an {@code HttpContent}, a NIO view), so 64 KiB chunks cost a 128-blob
     * getBlobsV2 response (35 MB) about 280 KiB of heap and 256 KiB chunks about 175 KiB (measured with
     * {@code VertxEndToEndBenchmark}); a stalled reader then holds at most the write queue's maximum plus two chunks.
     */
    public static final int DEFAULT_CHUNK_SIZE = JsonBodyInput.DEFAULT_CHUNK_SIZE;

    private VertxJsonBodyWriter() {}

    /**
     * Writes {@code body} as the response, in chunks of {@link #DEFAULT_CHUNK_SIZE} from
     * {@link ByteBufAllocator#DEFAULT}.
     *
     * @return completed when the response has ended (its last byte written), failed when a write fails, the connection
     *     closes first, or the response was already ended or closed
     */
    public static Future<Void> write(HttpServerResponse response, JsonBody body) {
        return write(response, body, ByteBufAllocator.DEFAULT, DEFAULT_CHUNK_SIZE);
    }

    /**
     * Writes {@code body} as the response in direct chunks of at most {@code chunkSize} bytes from {@code allocator},
     * as {@link #write(HttpServerResponse, JsonBody)}.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is below {@link JsonBodyInput#MIN_CHUNK_SIZE} (the body is
     *     then released)
     */
    public static Future<Void> write(
            HttpServerResponse response, JsonBody body, ByteBufAllocator allocator, int chunkSize) {
        JsonBodyInput input = new JsonBodyInput(body, chunkSize);
        Context context = Vertx.currentContext();
        if (context == null) {
            input.close();
            return Future.failedFuture(new IllegalStateException(
                    "VertxJsonBodyWriter.write needs a Vert.x context (an event loop or a worker thread)"));
        }
        Promise<Void> done = Promise.promise();
        ResponsePump pump = new ResponsePump(response, input, allocator, done);
        if (Context.isOnEventLoopThread()) {
            pump.start();
        } else {
            context.runOnContext(v -> pump.start());
        }
        return done.future();
    }
}
