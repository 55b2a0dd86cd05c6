package io.hexstream.server.message;

import io.hexstream.codec.body.StreamedBody;
import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.server.exchange.InOrderExchange;
import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.exchange.Reply;
import io.hexstream.server.http.IdleTimeoutHandler;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages of one connection, in line ({@link InOrderExchange}), last of its pipeline: each whole message (a
 * {@code ByteBuf}, the transport's decoders made it) is handed to the JSON-RPC route as a request body would be, and
 * its reply written once it and every reply before it are ready, framed by the transport ({@link ReplyFraming}),
 * produced chunk by chunk ({@link StreamedResponseEncoder#DEFAULT_CHUNK_SIZE} at most, from the reply's
 * {@link StreamedBody#bodyInput}) by the pipeline's {@code ChunkedWriteHandler} as the socket drains: no reply is built
 * whole. A message over {@link InOrderExchange#LARGE_REQUEST_BYTES} is handled on the large-request executor, never on
 * the loop: when that is full the connection closes (the message cannot be answered without its id).
 *
 * <p>Bounds, as on HTTP: at most {@code maxPipelined} messages are taken before their replies are written; at that many
 * the connection stops reading (the pipeline's {@link ReadThrottle}) until one is. A connection that has waited
 * {@code idleTimeout} for a whole message while no reply was being written is closed (after the transport's
 * {@link ReplyFraming#goodbye()}); so is one whose server stops ({@link IdleTimeoutHandler#CLOSE_WHEN_IDLE}), once its
 * replies in flight are written. A reply waiting its turn holds only references; on disconnect they are released.
 *
 * <p>The route answers through a {@link io.hexstream.server.exchange.ReplySink} of this connection: its request headers
 * none; a streamed body is the message (its status is not carried), an empty reply no message, and a whole body (which
 * only an HTTP route gives: the JSON-RPC route gives none) closes the connection.
 */
public final class MessageExchange extends InOrderExchange {
    private static final Logger LOG = LoggerFactory.getLogger(MessageExchange.class);

    private final Route route;
    private final long idleNanos;
    private final ReplyFraming framing;
    private final ServerMetrics metrics;
    /** {@link System#nanoTime()} when the connection last started waiting for a message. */
    private long idleSince;

    private ScheduledFuture<?> idleCheck;

    /**
     * @param route what answers each message: the JSON-RPC route
     * @param maxPipelined messages taken before their replies are written ({@code --max-pipelined})
     * @param idleTimeout how long the connection may wait for a whole message while no reply is being written
     *     ({@code --idle-timeout}; zero: no limit)
     * @param largeRequests where messages over {@link InOrderExchange#LARGE_REQUEST_BYTES} are handled: a bounded
     *     executor
     */
    public MessageExchange(
            Route route,
            int maxPipelined,
            Duration idleTimeout,
            Executor largeRequests,
            ReplyFraming framing,
            ServerMetrics metrics) {
        super(maxPipelined, largeRequests, metrics, framing.transport());
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idle timeout " + idleTimeout);
        }
        this.route = route;
        this.idleNanos = idleTimeout.toNanos();
        this.framing = framing;
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        super.handlerAdded(ctx);
        idleSince = System.nanoTime();
        if (idleNanos > 0) {
            scheduleIdleCheck(ctx, idleNanos);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf message)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (!isClosing()) {
                take(ctx, message);
            }
        } finally {
            message.release();
        }
    }

    private void take(ChannelHandlerContext ctx, ByteBuf message) {
        Place place = new Place(ctx, EmptyHttpHeaders.INSTANCE);
        take(place);
        if (!handle(ctx, message, place, route::handle)) {
            // The executor is full: never parsed on the event loop. Without its id the message cannot be answered,
            // so the connection closes, as HTTP's 503 does; the client sends it again.
            LOG.debug("closing {}: the request queue is full", ctx.channel().remoteAddress());
            closing();
            ctx.close();
        }
    }

    /** The transport's framing of a streamed body; nothing for an empty reply. */
    @Override
    protected Object encode(Place place, Reply reply) {
        if (reply instanceof Reply.Streamed streamed) {
            return framing.reply(streamed.body().bodyInput(StreamedResponseEncoder.DEFAULT_CHUNK_SIZE));
        }
        if (reply instanceof Reply.Empty) {
            return null; // notifications only
        }
        reply.release();
        throw new IllegalArgumentException("a message cannot carry " + reply);
    }

    @Override
    protected void sent(ChannelHandlerContext ctx, Place place, ChannelFuture written) {
        written.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
    }

    @Override
    protected void allWritten(ChannelHandlerContext ctx) {
        idleSince = System.nanoTime();
        if (isClosing()) {
            goodbye(ctx);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event != IdleTimeoutHandler.CLOSE_WHEN_IDLE) {
            ctx.fireUserEventTriggered(event);
            return;
        }
        closing();
        pauseReading();
        if (unwritten() == 0) {
            goodbye(ctx);
        }
    }

    /** Closes the connection after the transport's goodbye, if it has one. */
    private void goodbye(ChannelHandlerContext ctx) {
        Object goodbye = ctx.channel().isActive() ? framing.goodbye() : null;
        if (goodbye == null) {
            ctx.close();
        } else {
            ctx.writeAndFlush(goodbye).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void scheduleIdleCheck(ChannelHandlerContext ctx, long delayNanos) {
        idleCheck = ctx.executor().schedule(() -> idleCheck(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    /** Closes the connection if it has been waiting the whole timeout; otherwise looks again when it could be. */
    private void idleCheck(ChannelHandlerContext ctx) {
        if (!ctx.channel().isOpen()) {
            return;
        }
        long left = unwritten() > 0 ? idleNanos : idleNanos - (System.nanoTime() - idleSince);
        if (left > 0) {
            scheduleIdleCheck(ctx, left);
            return;
        }
        LOG.debug("closing {}: no whole message in {} ms", ctx.channel().remoteAddress(), idleNanos / 1_000_000);
        metrics.refused(ServerMetrics.Limit.IDLE_TIMEOUT);
        goodbye(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) { // a message over --max-request-bytes
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
        }
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
