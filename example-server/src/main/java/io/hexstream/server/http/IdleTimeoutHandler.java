package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection that has waited {@code timeout} for a whole request while no response was being written: a client
 * that connects and sends nothing, one that sends its request a byte at a time (slowloris: bytes that do not complete a
 * request do not reset the clock), or a keep-alive connection left unused. The clock starts when the connection opens
 * and again when the last response in flight has been written; it stands still from the moment a whole request has
 * arrived until its response is written, however slowly the client reads that response (a stalled or slow reader is not
 * cut off here; the write water marks bound what it can pin). So a request, body included, must arrive whole within the
 * timeout.
 *
 * <p>Sits between the aggregator (it sees {@link FullHttpRequest}s, and the {@link RefusedRequest}s of
 * {@link RequestHeadCheck}) and {@link EngineApiHandler}, which writes exactly one message, the whole response, per
 * request: each write through here is one response, done when its promise completes (a {@code 100 Continue} before it
 * is not counted). One instance per connection; {@link Duration#ZERO} never closes anything.
 *
 * <p>On {@link #CLOSE_WHEN_IDLE} (the server is stopping) it reads no more requests and closes the connection once no
 * response is in flight.
 */
public final class IdleTimeoutHandler extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(IdleTimeoutHandler.class);

    private final long timeoutNanos;
    private final ServerMetrics metrics;
    /** Requests received whose response is not written yet. */
    private int inFlight;
    /** {@link System#nanoTime()} when the connection last started waiting for a request. */
    private long idleSince;

    private ScheduledFuture<?> check;
    private boolean closeWhenIdle;

    /**
     * The user event that {@link EngineServer#close()} fires on every connection (also those that switched protocols,
     * whose handlers end them gently on it).
     */
    public static final Object CLOSE_WHEN_IDLE = new Object() {
        @Override
        public String toString() {
            return "CLOSE_WHEN_IDLE";
        }
    };

    /** @param timeout how long a connection may wait for a whole request; zero for no limit */
    public IdleTimeoutHandler(Duration timeout, ServerMetrics metrics) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("idle timeout " + timeout + " < 0");
        }
        this.timeoutNanos = timeout.toNanos();
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        super.channelInactive(ctx);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        stop();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof FullHttpRequest || msg instanceof RefusedRequest) {
            inFlight++;
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse interim && interim.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
            ctx.write(msg, promise); // a 100 Continue: the request's response is still to come
            return;
        }
        ctx.write(msg, promise.unvoid()).addListener(written -> {
            if (inFlight > 0 && --inFlight == 0) {
                idleSince = System.nanoTime();
                if (closeWhenIdle) {
                    ctx.close();
                }
            }
        });
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != CLOSE_WHEN_IDLE) {
            super.userEventTriggered(ctx, event);
            return;
        }
        closeWhenIdle = true;
        ctx.channel().config().setAutoRead(false);
        if (inFlight == 0) {
            ctx.close();
        }
    }

    private void start(ChannelHandlerContext ctx) {
        if (timeoutNanos == 0 || check != null) {
            return;
        }
        idleSince = System.nanoTime();
        schedule(ctx, timeoutNanos);
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Closes the connection if it has been waiting the whole timeout; otherwise looks again when it could be. */
    private void expire(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        if (inFlight > 0) {
            schedule(ctx, timeoutNanos);
            return;
        }
        long left = timeoutNanos - (System.nanoTime() - idleSince);
        if (left > 0) {
            schedule(ctx, left);
            return;
        }
        LOG.debug("closing {}: no whole request in {} ms", ctx.channel().remoteAddress(), timeoutNanos / 1_000_000);
        metrics.refused(ServerMetrics.Limit.IDLE_TIMEOUT);
        ctx.close();
    }

    private void stop() {
        if (check != null) {
            check.cancel(false);
        }
    }
}
