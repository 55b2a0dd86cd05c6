package io.hexstream.server.message;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.server.http.IdleTimeoutHandler;
import io.hexstream.server.http.ReadThrottle;
import io.hexstream.server.http.Responder;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The messages of one connection, in line, last of its pipeline: each whole message (a {@code ByteBuf}, the transport's
 * decoders made it) is handed to the JSON-RPC route as a request body would be, and its reply written once it and every
 * reply before it are ready, framed by the transport ({@link ReplyFraming}), produced chunk by chunk
 * ({@link StreamedResponseEncoder#DEFAULT_CHUNK_SIZE} at most, from the reply's {@link StreamedResponse#bodyInput}) by
 * the pipeline's {@code ChunkedWriteHandler} as the socket drains: no reply is built whole. A message over
 * {@link #LARGE_MESSAGE_BYTES} is handled on the large-request executor, never on the loop: when that is full the
 * connection closes (the message cannot be answered without its id).
 *
 * <p>Bounds, as on HTTP: at most {@code maxPipelined} messages are taken before their replies are written; at that many
 * the connection stops reading (the pipeline's {@link ReadThrottle}) until one is. A connection that has waited
 * {@code idleTimeout} for a whole message while no reply was being written is closed (after the transport's
 * {@link ReplyFraming#goodbye()}); so is one whose server stops ({@link IdleTimeoutHandler#CLOSE_WHEN_IDLE}), once its
 * replies in flight are written. A reply waiting its turn holds only references; on disconnect they are released.
 *
 * <p>The route answers through a {@link Responder} of this connection: its HTTP version is 1.1, its headers none, and
 * an answer that is not a {@link StreamedResponse} (the JSON-RPC route gives none) closes the connection.
 */
public final class MessageExchange extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(MessageExchange.class);
    /** Messages larger than this are handled off the event loop, as HTTP request bodies are. */
    public static final int LARGE_MESSAGE_BYTES = 64 * 1024;

    /** One message's place in line, and the route's {@link Responder} for it. */
    private final class Slot implements Responder {
        final ChannelHandlerContext ctx;
        final long received = System.nanoTime();
        boolean ready;
        /** The reply's body, or {@code null} for none (notifications only). */
        ChunkedInput<ByteBuf> body;

        long bodyBytes;
        ResponseSummary summary;

        Slot(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public HttpVersion version() {
            return HttpVersion.HTTP_1_1;
        }

        @Override
        public HttpHeaders requestHeaders() {
            return EmptyHttpHeaders.INSTANCE;
        }

        @Override
        public boolean keepAlive() {
            return true;
        }

        @Override
        public EventExecutor executor() {
            return ctx.executor();
        }

        @Override
        public boolean abandoned() {
            return inactive;
        }

        @Override
        public void respond(StreamedResponse response, ResponseSummary summary) {
            respond((Object) response, response.contentLength(), summary);
        }

        @Override
        public void respond(Object response, long bodyBytes, ResponseSummary summary) {
            if (ctx.executor().inEventLoop()) {
                answered(this, response, bodyBytes, summary);
                return;
            }
            try {
                ctx.executor().execute(() -> answered(this, response, bodyBytes, summary));
            } catch (RejectedExecutionException stopped) {
                ReferenceCountUtil.release(response);
                LOG.debug("a message answered after the event loop stopped");
            }
        }

        @Override
        public void respondEmpty(HttpResponseStatus status, ResponseSummary summary) {
            respond(null, 0, summary);
        }

        @Override
        public void respondText(HttpResponseStatus status, String reason, ResponseSummary summary) {
            LOG.debug("closing {}: a message answered with {} {}", ctx.channel().remoteAddress(), status, reason);
            ctx.close();
        }
    }

    private final Route route;
    private final int maxPipelined;
    private final long idleNanos;
    private final Executor largeRequests;
    private final ReplyFraming framing;
    private final ServerMetrics metrics;
    private final ArrayDeque<Slot> line = new ArrayDeque<>();
    private ReadThrottle throttle;
    /** Messages taken whose reply is not written yet. */
    private int unwritten;
    /** The server is stopping: read nothing more, close once the replies in flight are written. */
    private boolean closing;

    private boolean inactive;
    /** {@link System#nanoTime()} when the connection last started waiting for a message. */
    private long idleSince;

    private ScheduledFuture<?> idleCheck;

    /**
     * @param route what answers each message: the JSON-RPC route
     * @param maxPipelined messages taken before their replies are written ({@code --max-pipelined})
     * @param idleTimeout how long the connection may wait for a whole message while no reply is being written
     *     ({@code --idle-timeout}; zero: no limit)
     * @param largeRequests where messages over {@link #LARGE_MESSAGE_BYTES} are handled: a bounded executor
     */
    public MessageExchange(
            Route route,
            int maxPipelined,
            Duration idleTimeout,
            Executor largeRequests,
            ReplyFraming framing,
            ServerMetrics metrics) {
        if (maxPipelined < 1 || idleTimeout.isNegative()) {
            throw new IllegalArgumentException("max pipelined " + maxPipelined + ", idle timeout " + idleTimeout);
        }
        this.route = route;
        this.maxPipelined = maxPipelined;
        this.idleNanos = idleTimeout.toNanos();
        this.largeRequests = largeRequests;
        this.framing = framing;
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        throttle = ctx.pipeline().get(ReadThrottle.class);
        if (throttle == null) {
            throw new IllegalStateException("MessageExchange needs a ReadThrottle in the pipeline");
        }
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
        if (closing) {
            message.release();
            return;
        }
        try {
            take(ctx, message);
        } finally {
            message.release();
        }
    }

    private void take(ChannelHandlerContext ctx, ByteBuf message) {
        Slot slot = new Slot(ctx);
        line.add(slot);
        if (++unwritten == maxPipelined) {
            metrics.refused(ServerMetrics.Limit.MAX_PIPELINED);
        }
        if (unwritten >= maxPipelined) {
            throttle.pause();
        }
        if (message.readableBytes() > LARGE_MESSAGE_BYTES) {
            ByteBuf body = message.retain();
            try {
                largeRequests.execute(() -> {
                    try {
                        route.handle(body, slot);
                    } finally {
                        body.release();
                    }
                });
                return;
            } catch (RejectedExecutionException e) {
                // The executor is full: never parsed on the event loop. Without its id the message cannot be
                // answered, so the connection closes, as HTTP's 503 does; the client sends it again.
                body.release();
                metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
                LOG.debug("closing {}: the request queue is full", ctx.channel().remoteAddress());
                closing = true;
                ctx.close();
                return;
            }
        }
        route.handle(message, slot);
    }

    /** Sets {@code slot}'s reply, on the event loop, then writes every reply at the head of the line that is ready. */
    private void answered(Slot slot, Object response, long bodyBytes, ResponseSummary summary) {
        if (inactive) {
            ReferenceCountUtil.release(response);
            return;
        }
        if (response != null && !(response instanceof StreamedResponse)) {
            ReferenceCountUtil.release(response);
            LOG.debug(
                    "closing {}: a message answered with {}", slot.ctx.channel().remoteAddress(), response);
            slot.ctx.close();
            return;
        }
        if (response != null) {
            try {
                slot.body = ((StreamedResponse) response).bodyInput(StreamedResponseEncoder.DEFAULT_CHUNK_SIZE);
            } catch (RuntimeException e) {
                LOG.warn(
                        "closing {}: a reply could not be streamed",
                        slot.ctx.channel().remoteAddress(),
                        e);
                slot.ctx.close();
                return;
            }
        }
        slot.ready = true;
        slot.bodyBytes = bodyBytes;
        slot.summary = summary;
        writeReady(slot.ctx);
    }

    private void writeReady(ChannelHandlerContext ctx) {
        boolean wrote = false;
        while (!line.isEmpty() && line.peek().ready) {
            Slot next = line.poll();
            if (next.body == null) {
                written(ctx, next, false, true);
                continue;
            }
            metrics.responseStarted();
            ChannelFuture written = ctx.write(framing.reply(next.body));
            next.body = null;
            wrote = true;
            written.addListener(done -> written(ctx, next, true, done.isSuccess()));
            written.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        }
        if (wrote) {
            ctx.flush();
        }
    }

    /** A message's reply is written ({@code sent}; or there was none), to its last byte if {@code completed}. */
    private void written(ChannelHandlerContext ctx, Slot slot, boolean sent, boolean completed) {
        if (slot.summary != null) {
            metrics.responded(
                    framing.transport(), slot.summary, slot.bodyBytes, System.nanoTime() - slot.received, completed);
        }
        if (sent) {
            metrics.responseDone(); // after: no reply in flight means every one is in the metrics
        }
        if (--unwritten < maxPipelined && !closing) {
            throttle.resume();
        }
        if (unwritten == 0) {
            idleSince = System.nanoTime();
            if (closing) {
                goodbye(ctx);
            }
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event != IdleTimeoutHandler.CLOSE_WHEN_IDLE) {
            ctx.fireUserEventTriggered(event);
            return;
        }
        closing = true;
        throttle.pause();
        if (unwritten == 0) {
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
        long left = unwritten > 0 ? idleNanos : idleNanos - (System.nanoTime() - idleSince);
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
        inactive = true;
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        for (Slot slot : line) {
            closeQuietly(slot.body);
        }
        line.clear();
        ctx.fireChannelInactive();
    }

    private static void closeQuietly(ChunkedInput<ByteBuf> body) {
        if (body != null) {
            try {
                body.close();
            } catch (Exception e) {
                LOG.debug("closing a reply's body failed", e);
            }
        }
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
