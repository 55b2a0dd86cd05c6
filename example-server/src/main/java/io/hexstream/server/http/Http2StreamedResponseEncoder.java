package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.StreamEvent;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeUnit;

/**
 * On an HTTP/2 stream ({@link Http2Streams}), in HTTP/1.1's {@link StreamedResponseEncoder}'s place: a
 * {@link StreamedResponse}'s head goes down the stream's pipeline (HEADERS, with the body's exact
 * {@code content-length}), and its body goes straight to the connection's flow controller as {@link Http2BodyFrames},
 * which takes the body's chunks only as the windows open and cuts them into DATA frames below the stream's channel:
 * nothing per chunk passes the stream's handlers. The response's promise completes with the body's last frame written,
 * or fails with it. Everything else written passes.
 *
 * <p>While a body is being sent, {@link #unsent} is what {@link StalledWriteTimeout} sees held; a body that writes
 * nothing for {@link TransportMeter#STALL_MILLIS} (its window or the connection's shut, or the socket full) counts as a
 * {@link StreamEvent#STALLED} stream, once a stall; and if the stream's channel closes first (its write timeout, its
 * idle timeout), the stream is reset ({@code CANCEL}), which releases what the body holds.
 */
final class Http2StreamedResponseEncoder extends ChannelDuplexHandler {
    private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(TransportMeter.STALL_MILLIS);

    private final Http2FrameCodec frames;
    private final ServerMetrics metrics;
    /** The body being sent, or {@code null}. */
    private Http2BodyFrames body;

    private ScheduledFuture<?> stallCheck;
    private boolean stalled;

    /** @param frames the frame codec of the stream's connection */
    Http2StreamedResponseEncoder(Http2FrameCodec frames, ServerMetrics metrics) {
        this.frames = frames;
        this.metrics = metrics;
    }

    /** Bytes of the body being sent not yet handed to the socket's queue; 0 when none is. */
    long unsent() {
        return body == null ? 0 : body.size();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof StreamedResponse response) {
            start(ctx, response, promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    private void start(ChannelHandlerContext ctx, StreamedResponse response, ChannelPromise promise) {
        Http2Stream stream = frames.connection().stream(
                ((Http2StreamChannel) ctx.channel()).stream().id());
        long length = response.body().contentLength();
        if (body != null || !ctx.channel().isActive() || !sendsData(stream) || length > Integer.MAX_VALUE) {
            response.release();
            promise.tryFailure(
                    body != null || length > Integer.MAX_VALUE
                            ? new IllegalStateException(
                                    "a second response, or one of " + length + " bytes, on " + ctx.channel())
                            : new ClosedChannelException());
            return;
        }
        HttpResponse head = response.head(); // read while the response still holds the body
        ChunkedInput<ByteBuf> input;
        try {
            input = response.body().bodyInput(StreamedResponseEncoder.DEFAULT_CHUNK_SIZE);
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            ctx.close(); // no HEADERS were sent: the stream is reset
            return;
        }
        ChannelPromise done = ctx.channel().parent().pipeline().context(frames).newPromise();
        Http2BodyFrames sent = new Http2BodyFrames(
                stream, frames.encoder().configuration().frameSizePolicy(), frames, input, (int) length, done);
        ctx.write(head, ctx.voidPromise());
        if (!sendsData(stream)) { // the HEADERS failed, and took the stream with them
            sent.discard(new ClosedChannelException());
            promise.tryFailure(done.cause());
            return;
        }
        body = sent;
        done.addListener(future -> {
            if (body == sent) {
                ended();
            }
            if (future.isSuccess()) {
                promise.trySuccess();
            } else {
                promise.tryFailure(future.cause());
            }
        });
        frames.encoder().flowController().addFlowControlled(stream, sent);
        if (metrics != ServerMetrics.NONE && body != null) {
            watchStall(ctx, STALL_NANOS);
        }
    }

    /** The body is written, or failed: nothing more to watch. */
    private void ended() {
        body = null;
        if (stallCheck != null) {
            stallCheck.cancel(false);
            stallCheck = null;
        }
    }

    /** Whether {@code stream} may still send DATA (RFC 9113 5.1). */
    private static boolean sendsData(Http2Stream stream) {
        return stream != null
                && (stream.state() == Http2Stream.State.OPEN || stream.state() == Http2Stream.State.HALF_CLOSED_REMOTE);
    }

    private void watchStall(ChannelHandlerContext ctx, long delayNanos) {
        stallCheck = ctx.executor().schedule(() -> lookForStall(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Counts the body as stalled once it has written nothing for {@link TransportMeter#STALL_MILLIS}, once a stall. */
    private void lookForStall(ChannelHandlerContext ctx) {
        stallCheck = null;
        if (body == null) {
            return;
        }
        long waited = System.nanoTime() - body.wroteAt();
        if (waited < STALL_NANOS) {
            stalled = false;
            watchStall(ctx, STALL_NANOS - waited);
            return;
        }
        if (!stalled) {
            stalled = true;
            metrics.http2Stream(StreamEvent.STALLED);
        }
        watchStall(ctx, STALL_NANOS);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel(ctx);
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancel(ctx);
    }

    /**
     * A body still being sent when its stream's channel goes: the stream is reset, and the body with it (Netty's stream
     * channel resets it on its close, as it has sent no END_STREAM itself; this covers the handler's removal too).
     */
    private void cancel(ChannelHandlerContext ctx) {
        Http2BodyFrames cancelled = body;
        ended();
        if (cancelled != null && cancelled.stream().state() != Http2Stream.State.CLOSED) {
            ChannelHandlerContext connection = ctx.channel().parent().pipeline().context(frames);
            if (connection != null) {
                frames.resetStream(
                        connection, cancelled.stream().id(), Http2Error.CANCEL.code(), connection.newPromise());
                connection.flush();
            }
        }
    }
}
