package io.hexstream.server.http;

import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.text.PeerText;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2PingFrame;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connection of an HTTP/2 port, behind its streams' multiplexer, for what belongs to no stream:
 *
 * <ul>
 *   <li>a PING or SETTINGS frame read while the socket is full stops the reading until it drains (its acknowledgement
 *       is owed, and must not pile up: as a WebSocket pong), so a client that floods them and reads nothing holds
 *       nothing ({@link Http2Streams#MAX_QUEUED_CONTROL_FRAMES} closes a connection that gets past that);
 *   <li>a connection without an open stream for the idle timeout is closed (GOAWAY, then the close), as an idle
 *       HTTP/1.1 connection is; a stream open, however slow, keeps it (its own idle timeout bounds it);
 *   <li>when the server stops ({@link IdleTimeoutHandler#CLOSE_WHEN_IDLE}), GOAWAY: no new stream is taken, and the
 *       streams in flight finish within the drain timeout before the connection closes (the frame codec's graceful
 *       close); once the last of them is written, the close lingers ({@link LingeringClose}): a close while the client
 *       still sends (its WINDOW_UPDATEs as it reads) would reset the connection, and lose the reply's last bytes.
 * </ul>
 *
 * Every other connection-level frame has been acted upon by the frame codec; it ends here. One instance per connection,
 * on its event loop.
 */
final class Http2ConnectionWatch extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(Http2ConnectionWatch.class);

    private final Http2FrameCodec frames;
    private final long timeoutNanos;
    private final ServerMetrics metrics;
    private ReadThrottle throttle;
    private ScheduledFuture<?> check;
    private long idleSince;

    /** @param idleTimeout {@link Duration#ZERO}: never closed for idleness */
    Http2ConnectionWatch(Http2FrameCodec frames, Duration idleTimeout, ServerMetrics metrics) {
        this.frames = frames;
        this.timeoutNanos = idleTimeout.toNanos();
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        throttle = ctx.pipeline().get(ReadThrottle.class);
        idleSince = System.nanoTime();
        frames.connection().addListener(new Http2ConnectionAdapter() {
            @Override
            public void onStreamClosed(Http2Stream stream) {
                idleSince = System.nanoTime();
                if (frames.connection().goAwaySent() && frames.connection().numActiveStreams() == 0) {
                    // the last stream of a closing connection: the frame codec closes it next, and the client may
                    // still be reading that stream's last bytes, and returning its window
                    ctx.pipeline().fireUserEventTriggered(LingeringClose.START);
                }
            }
        });
        if (timeoutNanos > 0) {
            schedule(ctx, timeoutNanos);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (check != null) {
            check.cancel(false);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if ((msg instanceof Http2PingFrame ping && !ping.ack() || msg instanceof Http2SettingsFrame)
                && !ctx.channel().isWritable()
                && throttle != null) {
            throttle.pauseUntilWritable();
        }
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event == IdleTimeoutHandler.CLOSE_WHEN_IDLE) {
            ctx.channel().close(); // GOAWAY; the frame codec closes once the open streams are done
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    /**
     * A connection error the frame codec shows the pipeline before it answers it itself (GOAWAY with the error's code,
     * then the close: a bound passed, a malformed frame): the client's doing, logged at debug only, so that no client
     * decides what the server logs.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("HTTP/2 connection {}: {}", ctx.channel().remoteAddress(), PeerText.escape(String.valueOf(cause)));
    }

    private void schedule(ChannelHandlerContext ctx, long delayNanos) {
        check = ctx.executor().schedule(() -> expire(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Closes the connection if no stream has been open for the whole timeout; otherwise looks again when it could. */
    private void expire(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        Http2Connection connection = frames.connection();
        long left = timeoutNanos - (System.nanoTime() - idleSince);
        if (connection.numActiveStreams() > 0 || left > 0) {
            schedule(ctx, connection.numActiveStreams() > 0 ? timeoutNanos : left);
            return;
        }
        LOG.debug("closing {}: no stream in {} ms", ctx.channel().remoteAddress(), timeoutNanos / 1_000_000);
        metrics.refused(ServerMetrics.Limit.IDLE_TIMEOUT);
        ctx.channel().close();
    }
}
