package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Abandons a response that makes no progress for {@code timeout}: while anything is being written and no write (a
 * response head, or a chunk of at most 256 KiB of its body) has reached the socket for that long, the connection is
 * closed, which fails the pending writes and closes the response's input, releasing its body. A slow reader that takes
 * a chunk now and then is not cut off. Sits between the codec (HTTP, WebSocket, lines) and the
 * {@code ChunkedWriteHandler}, so that it sees each chunk. One instance per connection; {@link Duration#ZERO} never
 * closes anything. Netty's own {@code WriteTimeoutHandler} times each write from when it was queued, so it would cut
 * off a reader making steady progress behind a few queued chunks.
 */
public final class StalledWriteTimeout extends ChannelOutboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(StalledWriteTimeout.class);

    private final long timeoutNanos;
    private final ServerMetrics metrics;
    /** Writes not yet completed. */
    private int pending;
    /** {@link System#nanoTime()} of the last completed write, or of the first pending one. */
    private long progressAt;

    private ScheduledFuture<?> check;
    /** Counts a write done: one listener for every write of the connection, not an object per write. */
    private final ChannelFutureListener written = future -> {
        pending--;
        progressAt = System.nanoTime();
    };

    public StalledWriteTimeout(Duration timeout, ServerMetrics metrics) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("write timeout " + timeout + " < 0");
        }
        this.timeoutNanos = timeout.toNanos();
        this.metrics = metrics;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (timeoutNanos == 0) {
            ctx.write(msg, promise);
            return;
        }
        if (pending++ == 0) {
            progressAt = System.nanoTime();
        }
        if (check == null) {
            schedule(ctx, timeoutNanos);
        }
        ctx.write(msg, promise.unvoid()).addListener(written);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void expire(ChannelHandlerContext ctx) {
        check = null;
        if (pending == 0 || !ctx.channel().isOpen()) {
            return;
        }
        long left = timeoutNanos - (System.nanoTime() - progressAt);
        if (left > 0) {
            schedule(ctx, left);
            return;
        }
        LOG.debug(
                "closing {}: a response made no progress in {} ms",
                ctx.channel().remoteAddress(),
                timeoutNanos / 1_000_000);
        metrics.refused(ServerMetrics.Limit.WRITE_TIMEOUT);
        ctx.close();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (check != null) {
            check.cancel(false);
        }
    }
}
