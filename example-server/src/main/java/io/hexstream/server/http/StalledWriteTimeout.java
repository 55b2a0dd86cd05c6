package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Abandons a response that makes no progress for {@code timeout}: while anything is queued for the socket and nothing
 * of it has left for that long, the connection is closed, which fails the pending writes and closes the response's
 * input, releasing its body. A slow reader that takes a chunk now and then is not cut off. Progress is bytes that left
 * the channel's outbound buffer, never bytes added to it: the bytes queued when last looked at, plus those queued
 * through this handler since, less those queued now (the messages written whole and removed), or more of the first
 * message written. So a peer that makes the server queue more (pongs to its pings) while it reads nothing makes no
 * progress. Looked at every quarter of the timeout while anything is queued, so a stall is caught between
 * {@code timeout} and 1.25 × {@code timeout} after the last byte left, and no write needs a promise or listener of its
 * own (the body's chunks have none). One instance per connection, nearer the socket than every handler that writes
 * responses; {@link Duration#ZERO} never closes anything. Netty's own {@code WriteTimeoutHandler} times each write from
 * when it was queued, so it would cut off a reader making steady progress behind a few queued chunks.
 *
 * <p>On an HTTP/2 stream ({@link #forStream}), which has no outbound buffer of its own, what is queued is what keeps
 * the stream unwritable (its flow-control window shut, or its bytes held past its high water mark), or the bytes of its
 * streamed body not yet written ({@link Http2StreamedResponseEncoder#unsent}), whichever is more: a write through here
 * is progress, and so is fewer bytes held; a stream that holds bytes without either for {@code timeout} is closed
 * ({@code RST_STREAM}), its connection and other streams left as they are.
 */
public final class StalledWriteTimeout extends ChannelOutboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(StalledWriteTimeout.class);

    private final long timeoutNanos;
    private final ServerMetrics metrics;
    /** On an HTTP/2 stream, the bytes of its streamed body not yet written. */
    private final LongSupplier streamBody;
    /** {@link System#nanoTime()} when progress was last seen, or when the first write was queued. */
    private long progressAt;
    /** The outbound buffer as last seen: its first message's identity, that message's progress, the bytes queued. */
    private int seenMessage;

    private long seenProgress;
    private long seenPending;
    /** Bytes queued through this handler since the outbound buffer was last seen. */
    private long queuedSince;

    private ScheduledFuture<?> check;

    public StalledWriteTimeout(Duration timeout, ServerMetrics metrics) {
        this(timeout, metrics, () -> 0);
    }

    private StalledWriteTimeout(Duration timeout, ServerMetrics metrics, LongSupplier streamBody) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("write timeout " + timeout + " < 0");
        }
        this.timeoutNanos = timeout.toNanos();
        this.metrics = metrics;
        this.streamBody = streamBody;
    }

    /** The timeout of an HTTP/2 stream whose streamed body, sent below its channel, has {@code unsent} bytes left. */
    static StalledWriteTimeout forStream(Duration timeout, ServerMetrics metrics, LongSupplier unsent) {
        return new StalledWriteTimeout(timeout, metrics, unsent);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
        if (timeoutNanos == 0) {
            ctx.write(msg, promise);
            return;
        }
        if (queued == null) { // an HTTP/2 stream
            ctx.write(msg, promise);
            progressAt = System.nanoTime();
            seenPending = streamHeld(ctx);
            if (check == null) {
                schedule(ctx, period());
            }
            return;
        }
        long before = queued.totalPendingWriteBytes();
        ctx.write(msg, promise); // the handlers nearer the socket encode it into the outbound buffer, synchronously
        queuedSince += Math.max(0, queued.totalPendingWriteBytes() - before);
        if (check == null) {
            progressAt = System.nanoTime();
            see(queued);
            schedule(ctx, period());
        }
    }

    /**
     * What an HTTP/2 stream holds: what keeps it unwritable (at least 1 while it is: its window may be shut with little
     * held), or its body's bytes not yet written, whichever is more.
     */
    private long streamHeld(ChannelHandlerContext ctx) {
        long unwritable =
                ctx.channel().isWritable() ? 0 : Math.max(1, ctx.channel().bytesBeforeWritable());
        return Math.max(unwritable, streamBody.getAsLong());
    }

    private long period() {
        return Math.max(timeoutNanos / 4, 1);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void see(ChannelOutboundBuffer queued) {
        seenMessage = System.identityHashCode(queued.current());
        seenProgress = queued.currentProgress();
        seenPending = queued.totalPendingWriteBytes();
        queuedSince = 0;
    }

    /** Whether bytes left since {@link #see}: whole messages (fewer bytes queued than were), or part of the first. */
    private boolean moved(ChannelOutboundBuffer queued) {
        return seenPending + queuedSince > queued.totalPendingWriteBytes()
                || seenMessage == System.identityHashCode(queued.current()) && queued.currentProgress() > seenProgress;
    }

    private void expire(ChannelHandlerContext ctx) {
        check = null;
        ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
        long held = queued != null ? queued.totalPendingWriteBytes() : streamHeld(ctx);
        if (!ctx.channel().isOpen() || held == 0) {
            return; // nothing being written: the next write watches again
        }
        long now = System.nanoTime();
        if (queued != null ? moved(queued) : held < seenPending) {
            progressAt = now;
            if (queued != null) {
                see(queued);
            }
        }
        if (queued == null) {
            seenPending = held;
        }
        long left = timeoutNanos - (now - progressAt);
        if (left > 0) {
            schedule(ctx, Math.min(left, period()));
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
