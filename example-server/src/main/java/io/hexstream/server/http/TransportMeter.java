package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.StreamEvent;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.FileRegion;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Next to the socket, per connection, only when metrics are on: counts the bytes handed to the socket and tells when
 * the connection has been unwritable (the reader not draining its responses) for more than {@link #STALL_MILLIS}, and
 * when it no longer is. On an HTTP/2 stream ({@link #stream}) it counts only the stall of what the stream's channel
 * writes, as a {@link StreamEvent#STALLED} (the stream's flow-control window, the connection's, or the socket shut):
 * its bytes are its connection's, and a streamed body, sent below the stream's channel, is watched by
 * {@link Http2StreamedResponseEncoder}. Touches nothing it is given.
 */
final class TransportMeter extends ChannelDuplexHandler {
    /** How long a connection stays unwritable before it counts as stalled. */
    static final long STALL_MILLIS = 1000;

    private final ServerMetrics metrics;
    /** On an HTTP/2 stream, not a connection. */
    private final boolean stream;

    private ScheduledFuture<?> check;
    private boolean stalled;

    TransportMeter(ServerMetrics metrics) {
        this(metrics, false);
    }

    private TransportMeter(ServerMetrics metrics, boolean stream) {
        this.metrics = metrics;
        this.stream = stream;
    }

    /** The meter of an HTTP/2 stream. */
    static TransportMeter stream(ServerMetrics metrics) {
        return new TransportMeter(metrics, true);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        long bytes = msg instanceof ByteBuf buf
                ? buf.readableBytes()
                : msg instanceof ByteBufHolder holder
                        ? holder.content().readableBytes()
                        : msg instanceof FileRegion region ? region.count() - region.transferred() : 0;
        if (bytes > 0 && !stream) {
            metrics.bytesWritten(bytes);
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!ctx.channel().isWritable()) {
            if (check == null && !stalled) {
                check = ctx.executor()
                        .schedule(
                                () -> {
                                    check = null;
                                    if (!ctx.channel().isWritable()
                                            && ctx.channel().isActive()) {
                                        stalled = true;
                                        if (stream) {
                                            metrics.http2Stream(StreamEvent.STALLED);
                                        } else {
                                            metrics.stalled(true);
                                        }
                                    }
                                },
                                STALL_MILLIS,
                                TimeUnit.MILLISECONDS);
            }
        } else {
            unstall();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        unstall();
        ctx.fireChannelInactive();
    }

    private void unstall() {
        if (check != null) {
            check.cancel(false);
            check = null;
        }
        if (stalled) {
            stalled = false;
            if (!stream) {
                metrics.stalled(false);
            }
        }
    }
}
