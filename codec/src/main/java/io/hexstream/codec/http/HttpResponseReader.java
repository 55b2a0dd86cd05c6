package io.hexstream.codec.http;

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
 * The client's side of HTTP/1.1, after an {@code HttpClientCodec}: sends each {@link HttpExchange} written to the
 * channel and hands its response's head and each body piece, as it arrives, to the exchange's
 * {@link HttpResponseConsumer}; no body is aggregated. Requests may be pipelined on a kept-alive connection: responses
 * are matched to them in order (RFC 9112, section 9.3.2); interim (1xx) responses are skipped.
 *
 * <pre>
 * pipeline.addLast(new HttpClientCodec(), new HttpResponseReader(false));
 * channel.writeAndFlush(new HttpExchange(request, consumer));
 * </pre>
 *
 * <p>A consumer that throws fails its exchange; the rest of that body is dropped and the connection stays usable for
 * the next response. A response that cannot be decoded as HTTP, an exception in the pipeline, a failed write or the
 * connection's end fail the exchange being read and every one waiting, and close the connection.
 *
 * <p>Paced reading, for a consumer that bounds its memory: constructed with {@code paced}, the handler turns the
 * channel's auto-read off and asks for the next socket read only after the previous one has been read, unless the
 * consumer has called {@link #pause()}; {@link #resume()} reads on. Both may be called from any thread.
 *
 * <p>Ownership: every message read is released here, on every path; the request is handed on to the channel.
 */
public class HttpResponseReader extends ChannelDuplexHandler {
    private final boolean paced;
    private final ArrayDeque<HttpResponseConsumer> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** The exchange whose body is being read; null between responses and while a failed body is dropped. */
    private HttpResponseConsumer current;

    private boolean paused;

    /** A handler reading as fast as the socket delivers ({@code paced = false}) or as the consumer asks. */
    public HttpResponseReader(boolean paced) {
        this.paced = paced;
    }

    /** Stops asking for socket reads after the one under way (paced handlers only). */
    public final void pause() {
        onLoop(() -> paused = true);
    }

    /** Asks for socket reads again after {@link #pause()} (paced handlers only). */
    public final void resume() {
        onLoop(() -> {
            if (paused) {
                paused = false;
                ctx.read();
            }
        });
    }

    private void onLoop(Runnable task) {
        if (!paced) {
            throw new IllegalStateException("only a paced " + getClass().getSimpleName() + " is paused and resumed");
        }
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (paced) {
            ctx.channel().config().setAutoRead(false);
            if (ctx.channel().isActive()) {
                ctx.read();
            }
        }
    }

    @Override
    public final void channelActive(ChannelHandlerContext ctx) {
        if (paced) {
            ctx.read();
        }
        ctx.fireChannelActive();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof HttpExchange exchange)) {
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
    public final void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpResponse head) {
                if (head.decoderResult().isFailure()) {
                    failAll(head.decoderResult().cause());
                    ctx.close();
                    return;
                }
                if (head.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                    return;
                }
                current = waiting.poll();
                if (current == null) {
                    ctx.close();
                    return;
                }
                step(() -> current.head(head));
            }
            if (msg instanceof HttpContent content) {
                if (content.decoderResult().isFailure()) {
                    failAll(content.decoderResult().cause());
                    ctx.close();
                    return;
                }
                step(() -> current.content(content.content()));
                if (content instanceof LastHttpContent) {
                    HttpResponseConsumer done = current;
                    current = null;
                    if (done != null) {
                        step(done, done::complete);
                    }
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** Runs {@code step} of the current exchange, if any; a fault fails it and drops the rest of its body. */
    private void step(Runnable step) {
        if (current != null && !step(current, step)) {
            current = null;
        }
    }

    private static boolean step(HttpResponseConsumer consumer, Runnable step) {
        try {
            step.run();
            return true;
        } catch (RuntimeException e) {
            consumer.failed(e);
            return false;
        }
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        if (paced && !paused) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public final void channelInactive(ChannelHandlerContext ctx) {
        failAll(new ClosedChannelException());
        ctx.fireChannelInactive();
    }

    @Override
    public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failAll(cause);
        ctx.close();
    }

    /** Fails the exchange being read and every one waiting, in order. */
    private void failAll(Throwable cause) {
        HttpResponseConsumer consumer = current;
        current = null;
        if (consumer != null) {
            consumer.failed(cause);
        }
        while ((consumer = waiting.poll()) != null) {
            consumer.failed(cause);
        }
    }
}
