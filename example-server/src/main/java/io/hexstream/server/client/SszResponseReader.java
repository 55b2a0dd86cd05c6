package io.hexstream.server.client;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The client's side of the REST getBlobs routes over HTTP/1.1, after an {@code HttpClientCodec}: sends each
 * {@link Exchange} written to the channel and hands its response's head and each body piece, as it arrives, to its
 * {@link SszBlobsResponse}; responses are matched to pipelined requests in order (RFC 9112, section 9.3.2). A body the
 * response finds malformed fails its call and the rest of it is dropped; an undecodable response, an exception, a
 * failed write or the connection's end fail the call being read and every one waiting.
 *
 * <p>Paced reading as {@link io.hexstream.codec.http.JsonResponseReader}'s: with {@code paced}, auto-read is off and
 * the next socket read is asked for after each, unless {@link #pause()}d.
 *
 * <p>Ownership: every message read is released here; the request is handed on to the channel.
 */
final class SszResponseReader extends ChannelDuplexHandler {
    /** A request and the response that reads its answer. */
    record Exchange(FullHttpRequest request, SszBlobsResponse response) {}

    private final boolean paced;
    private final ArrayDeque<SszBlobsResponse> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** The response being read; null between responses and while a failed body is dropped. */
    private SszBlobsResponse current;

    private boolean paused;

    SszResponseReader(boolean paced) {
        this.paced = paced;
    }

    /** Stops asking for socket reads after the one under way (paced handlers only). */
    void pause() {
        onLoop(() -> paused = true);
    }

    /** Asks for socket reads again after {@link #pause()} (paced handlers only). */
    void resume() {
        onLoop(() -> {
            if (paused) {
                paused = false;
                ctx.read();
            }
        });
    }

    private void onLoop(Runnable task) {
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
        if (!(msg instanceof Exchange exchange)) {
            ctx.write(msg, promise);
            return;
        }
        waiting.add(exchange.response());
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
                    SszBlobsResponse done = current;
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

    /** Runs {@code step} of the current response, if any; a fault fails it and drops the rest of its body. */
    private void step(Runnable step) {
        if (current != null) {
            SszBlobsResponse response = current;
            if (!step(response, step)) {
                current = null;
            }
        }
    }

    private static boolean step(SszBlobsResponse response, Runnable step) {
        try {
            step.run();
            return true;
        } catch (RuntimeException e) {
            response.failed(e);
            return false;
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

    private void failAll(Throwable cause) {
        SszBlobsResponse response = current;
        current = null;
        if (response != null) {
            response.failed(cause);
        }
        while ((response = waiting.poll()) != null) {
            response.failed(cause);
        }
    }
}
