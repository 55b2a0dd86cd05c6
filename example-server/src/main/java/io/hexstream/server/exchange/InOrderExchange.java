package io.hexstream.server.exchange;

import io.hexstream.codec.body.StreamedBody;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of one connection, in line, whatever the transport: each taken request gets a {@link Place}, the
 * {@link ReplySink} its route answers through, from any thread; every reply is written in request order, each as soon
 * as it and all before it are ready, so that a reply that waits for an executor holds back the later ones, never the
 * event loop. A request body over {@link #LARGE_REQUEST_BYTES} is handed to its route on the large-request executor,
 * retained until then (released unhandled if the event loop is shutting down meanwhile: no reply could be written). The
 * transport says what it writes for a reply ({@link #encode}) and what follows the write ({@link #sent}); HTTP/1.1's
 * {@code EngineApiHandler} and the message transports' {@code MessageExchange} are the two, as Netty's
 * {@code MessageAggregator} underlies both of its aggregators.
 *
 * <p>Flow control: at most {@code maxPipelined} requests are taken before their replies are written (to the socket); at
 * that many the connection stops reading (the pipeline's {@link ReadThrottle}) until one is written, so a client that
 * sends without reading costs bounded memory. A reply waiting its turn holds only references (its body is produced as
 * the socket drains); on disconnect, and for a reply that comes after the event loop stopped, they are released here.
 * Runs on the channel's event loop; one instance per connection.
 */
public abstract class InOrderExchange extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(InOrderExchange.class);
    /**
     * Bodies larger than this are handled on the large-request executor, not on the event loop: a 16 MiB JSON-RPC batch
     * takes the parser and the dispatcher tens to hundreds of milliseconds. A 128-hash getBlobs call is about 9 KB; a
     * 6-blob transaction 1.7 MB.
     */
    public static final int LARGE_REQUEST_BYTES = 64 * 1024;

    /**
     * One request's place in line, and its route's {@link ReplySink}: its reply once ready; for the metrics, when the
     * whole request was in, and what its reply answered ({@code null}: nothing to record) in how many body bytes.
     */
    protected class Place implements ReplySink {
        private final ChannelHandlerContext ctx;
        private final HttpHeaders requestHeaders;
        private final long received = System.nanoTime();
        /** An interim reply (e.g. {@code 100 Continue}): written in turn, but no request's reply. */
        private boolean interim;

        private Reply reply;
        private ResponseSummary summary;
        private long bodyBytes;

        public Place(ChannelHandlerContext ctx, HttpHeaders requestHeaders) {
            this.ctx = ctx;
            this.requestHeaders = requestHeaders;
        }

        @Override
        public final HttpHeaders requestHeaders() {
            return requestHeaders;
        }

        @Override
        public final EventExecutor executor() {
            return ctx.executor();
        }

        @Override
        public final boolean abandoned() {
            return inactive;
        }

        @Override
        public final void respond(HttpResponseStatus status, StreamedBody body, ResponseSummary summary) {
            reply(new Reply.Streamed(status, body), body.contentLength(), summary);
        }

        @Override
        public final void respond(
                HttpResponseStatus status, HttpHeaders headers, ByteBuf content, ResponseSummary summary) {
            reply(new Reply.Whole(status, headers, content), content.readableBytes(), summary);
        }

        @Override
        public final void respondEmpty(HttpResponseStatus status, ResponseSummary summary) {
            reply(new Reply.Empty(status), 0, summary);
        }

        /** Hands {@code reply} over, from any thread: to the event loop, or released if that has stopped. */
        protected final void reply(Reply reply, long bodyBytes, ResponseSummary summary) {
            if (ctx.executor().inEventLoop()) {
                ready(this, reply, bodyBytes, summary);
                return;
            }
            try {
                ctx.executor().execute(() -> ready(this, reply, bodyBytes, summary));
            } catch (RejectedExecutionException stopped) {
                reply.release();
                LOG.debug("a request answered after the event loop stopped");
            }
        }
    }

    private final int maxPipelined;
    private final Executor largeRequests;
    private final ServerMetrics metrics;
    private final String transport;
    private final ArrayDeque<Place> line = new ArrayDeque<>();
    private ReadThrottle throttle;
    /** Requests taken whose reply is not written yet. */
    private int unwritten;
    /** The connection closes once the replies in line are written: read nothing more. */
    private boolean closing;

    private boolean inactive;

    /**
     * @param maxPipelined requests taken before their replies are written ({@code --max-pipelined})
     * @param largeRequests where bodies over {@link #LARGE_REQUEST_BYTES} are handled: a bounded executor
     * @param transport the transport's label in the metrics and the access log, e.g. {@link ServerMetrics#HTTP}
     */
    protected InOrderExchange(int maxPipelined, Executor largeRequests, ServerMetrics metrics, String transport) {
        if (maxPipelined < 1) {
            throw new IllegalArgumentException("max pipelined " + maxPipelined + " < 1");
        }
        this.maxPipelined = maxPipelined;
        this.largeRequests = largeRequests;
        this.metrics = metrics;
        this.transport = transport;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        throttle = ctx.pipeline().get(ReadThrottle.class);
        if (throttle == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " needs a ReadThrottle in the pipeline");
        }
    }

    /**
     * The message written for {@code reply} when its turn comes, on the event loop, or {@code null} for nothing (its
     * request needs no answer). Takes the reply's reference over; throws, having released it, if the transport cannot
     * carry it: the connection is then closed.
     */
    protected abstract Object encode(Place place, Reply reply);

    /** Called once {@code place}'s message is written to the pipeline, e.g. to close the connection after it. */
    protected abstract void sent(ChannelHandlerContext ctx, Place place, ChannelFuture written);

    /** Called when no taken request's reply is left unwritten. */
    protected void allWritten(ChannelHandlerContext ctx) {}

    /** Puts {@code place} in line; reads stop at {@code maxPipelined} unwritten replies, or while closing. */
    protected final void take(Place place) {
        line.add(place);
        if (++unwritten == maxPipelined) {
            metrics.refused(ServerMetrics.Limit.MAX_PIPELINED);
        }
        if (unwritten >= maxPipelined || closing) {
            throttle.pause();
        }
    }

    /** Puts an interim reply in line, ready: written after the replies before it; it takes no request's place. */
    protected final void interim(Place place, Object message) {
        place.interim = true;
        line.add(place);
        ready(place, new Reply.Message(message), 0, null);
    }

    /**
     * Hands {@code body} (the whole request body, not released here) to {@code route} with {@code place}: now, or for a
     * body over {@link #LARGE_REQUEST_BYTES} on the large-request executor, never on the event loop.
     *
     * @return {@code false} if that executor refused it (it is full): the body is left unparsed and the refusal
     *     counted, for the transport to answer
     */
    protected final boolean handle(
            ChannelHandlerContext ctx, ByteBuf body, Place place, BiConsumer<ByteBuf, ReplySink> route) {
        if (body.readableBytes() <= LARGE_REQUEST_BYTES) {
            route.accept(body, place);
            return true;
        }
        ByteBuf retained = body.retain();
        try {
            largeRequests.execute(() -> {
                try {
                    if (!ctx.executor().isShuttingDown()) { // else the server is stopping: no reply can be sent
                        route.accept(retained, place);
                    }
                } finally {
                    retained.release();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            retained.release();
            metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
            return false;
        }
    }

    /** The connection closes once the replies in line are written: no more reading resumes. */
    protected final void closing() {
        closing = true;
    }

    /** Whether {@link #closing()} was called. */
    protected final boolean isClosing() {
        return closing;
    }

    /** Stops reading the connection, until {@link #take}'s bound lets go (never while closing). */
    protected final void pauseReading() {
        throttle.pause();
    }

    /** Requests taken whose reply is not written yet. */
    protected final int unwritten() {
        return unwritten;
    }

    /**
     * Sets {@code place}'s reply, on the event loop, and its summary with what the request's headers say of the client
     * ({@link ResponseSummary#withRequestHeaders}); then writes every reply at the head of the line that is ready.
     */
    private void ready(Place place, Reply reply, long bodyBytes, ResponseSummary summary) {
        if (inactive) {
            reply.release();
            return;
        }
        place.reply = reply;
        place.bodyBytes = bodyBytes;
        place.summary = summary == null ? null : summary.withRequestHeaders(place.requestHeaders);
        writeReady(place.ctx);
    }

    private void writeReady(ChannelHandlerContext ctx) {
        boolean wrote = false;
        while (!line.isEmpty() && line.peek().reply != null) {
            Place next = line.poll();
            Reply reply = next.reply;
            next.reply = null;
            Object message;
            try {
                message = encode(next, reply);
            } catch (RuntimeException e) {
                LOG.warn(
                        "closing {}: a reply could not be written",
                        ctx.channel().remoteAddress(),
                        e);
                ctx.close();
                break;
            }
            if (next.interim) {
                ctx.write(message);
                wrote = true;
            } else if (message == null) {
                written(ctx, next, false, true);
            } else {
                metrics.responseStarted();
                ChannelFuture written = ctx.write(message);
                wrote = true;
                written.addListener(done -> written(ctx, next, true, done.isSuccess()));
                sent(ctx, next, written);
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }

    /** {@code place}'s reply is written ({@code sent}; or there was none), to its last byte if {@code completed}. */
    private void written(ChannelHandlerContext ctx, Place place, boolean sent, boolean completed) {
        if (place.summary != null) {
            metrics.responded(transport, place.summary, place.bodyBytes, System.nanoTime() - place.received, completed);
        }
        if (sent) {
            metrics.responseDone(); // after: no reply in flight means every one is in the metrics
        }
        if (--unwritten < maxPipelined && !closing) {
            throttle.resume();
        }
        if (unwritten == 0) {
            allWritten(ctx);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inactive = true;
        for (Place place : line) {
            if (place.reply != null) {
                place.reply.release();
            }
        }
        line.clear();
        ctx.fireChannelInactive();
    }
}
