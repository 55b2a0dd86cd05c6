package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The client's side of JSON over HTTP/1.1: sends each {@link JsonExchange} written to the channel and reads its
 * response's body, as each {@link HttpContent} arrives, through a {@link JsonHexReader} into the listener the
 * exchange's consumer gives for it; no body is aggregated. Requests may be pipelined on a kept-alive connection:
 * responses are matched to them in order (RFC 9112, section 9.3.2).
 *
 * <pre>
 * pipeline.addLast(new HttpClientCodec(), new JsonResponseReader(false));
 * channel.writeAndFlush(new JsonExchange(request, consumer));
 * </pre>
 *
 * <p>A body that is not the JSON the listener expects fails its exchange; the rest of that body is dropped and the
 * connection stays usable for the next response. A response that cannot be decoded as HTTP, an exception in the
 * pipeline, a failed write or the connection's end fail the exchange being read and every one waiting, and close the
 * connection.
 *
 * <p>Paced reading, for a consumer that bounds its memory: constructed with {@code paced}, the handler turns the
 * channel's auto-read off and asks for the next socket read only after the previous one has been read, unless the
 * consumer has called {@link #pause()}; {@link #resume()} reads on. Both may be called from any thread.
 *
 * <p>Ownership: every message read is released here, on every path; the request is handed on to the channel. The reader
 * keeps no buffer: the listener's destinations are the consumer's.
 */
public final class JsonResponseReader extends ChannelDuplexHandler {
    private static final JsonTokenListener IGNORE = new JsonTokenListener() {};

    private final boolean paced;
    private final ArrayDeque<JsonResponseConsumer> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** The exchange whose body is being read; null between responses and while a failed body is dropped. */
    private JsonResponseConsumer current;

    private JsonHexReader reader;
    private boolean paused;

    /** A handler reading as fast as the socket delivers ({@code paced = false}) or as the consumer asks. */
    public JsonResponseReader(boolean paced) {
        this.paced = paced;
    }

    /** Stops asking for socket reads after the one under way (paced handlers only). */
    public void pause() {
        onLoop(() -> paused = true);
    }

    /** Asks for socket reads again after {@link #pause()} (paced handlers only). */
    public void resume() {
        onLoop(() -> {
            if (paused) {
                paused = false;
                ctx.read();
            }
        });
    }

    private void onLoop(Runnable task) {
        if (!paced) {
            throw new IllegalStateException("only a paced JsonResponseReader is paused and resumed");
        }
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (paced) {
            ctx.channel().config().setAutoRead(false);
            if (ctx.channel().isActive()) {
                ctx.read();
            }
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (paced) {
            ctx.read();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof JsonExchange exchange)) {
            ctx.write(msg, promise);
            return;
        }
        waiting.add(exchange.consumer());
        // A request that is not sent leaves its response unmatched: the connection cannot go on.
        ctx.write(exchange.request(), promise.unvoid()).addListener(future -> {
            if (!future.isSuccess()) {
                failAll(future.cause());
                ctx.close();
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpResponse head) {
                if (head.decoderResult().isFailure()) {
                    failAll(head.decoderResult().cause());
                    ctx.close();
                    return;
                }
                if (!begin(ctx, head)) {
                    return;
                }
            }
            if (msg instanceof HttpContent content) {
                if (content.decoderResult().isFailure()) {
                    failAll(content.decoderResult().cause());
                    ctx.close();
                    return;
                }
                read(content);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** A response head: the next waiting exchange's. False if it is an interim (1xx) response or unasked for. */
    private boolean begin(ChannelHandlerContext ctx, HttpResponse head) {
        if (head.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
            return false;
        }
        JsonResponseConsumer consumer = waiting.poll();
        if (consumer == null) {
            ctx.close();
            return false;
        }
        try {
            JsonTokenListener listener = consumer.head(head);
            reader = new JsonHexReader(listener == null ? IGNORE : listener);
            current = consumer;
        } catch (RuntimeException e) {
            consumer.failed(e);
        }
        return true;
    }

    private void read(HttpContent content) {
        JsonResponseConsumer consumer = current;
        if (consumer == null) {
            return; // the body of a failed exchange
        }
        try {
            reader.feed(content.content());
            if (content instanceof LastHttpContent) {
                reader.end();
                current = null;
                reader = null;
                consumer.complete();
            }
        } catch (RuntimeException e) {
            current = null;
            reader = null;
            consumer.failed(e);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (paced && !paused) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        failAll(new ClosedChannelException());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failAll(cause);
        ctx.close();
    }

    /** Fails the exchange being read and every one waiting, in order. */
    private void failAll(Throwable cause) {
        JsonResponseConsumer consumer = current;
        current = null;
        reader = null;
        if (consumer != null) {
            consumer.failed(cause);
        }
        while ((consumer = waiting.poll()) != null) {
            consumer.failed(cause);
        }
    }
}
