package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of one connection, in line: each whole request ({@link FullHttpRequest}, its head already checked by
 * {@link RequestHeadCheck}, which passed its {@link Route} just before it) is handed to its route; each refused one
 * ({@link RefusedRequest}) is answered with its status; a {@link ContinueExpected} is answered {@code 100 Continue}.
 * Every response, those of the handlers before this one included, is written here, in request order (HTTP/1.1
 * pipelining), each as soon as it and all before it are ready: a response that waits for an executor holds back the
 * responses to later requests, never the event loop. A request body over {@link #LARGE_REQUEST_BYTES} is handled on the
 * large-request executor, its buffer retained until then (released unhandled if the event loop has stopped meanwhile);
 * never on the loop: when that executor's queue is full the request is refused unparsed with {@code 503} (on its head
 * by {@link RequestHeadCheck}, before its body is read, when its {@code Content-Length} says it is large; here, once
 * the body is whole, when the queue filled up meanwhile or the body came without a length), and the connection closes
 * after the answer.
 *
 * <p>Flow control: at most {@code maxPipelined} requests are taken before their responses are written (to the socket);
 * at that many the connection stops reading ({@link ReadThrottle}) until one is written, so a client that sends without
 * reading costs bounded memory. A response waiting its turn holds only references (its body is produced as the socket
 * drains); on disconnect the waiting ones are released.
 */
final class EngineApiHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EngineApiHandler.class);
    /**
     * Bodies larger than this are handled on the large-request executor, not on the event loop: a 16 MiB JSON-RPC batch
     * takes the parser and the dispatcher tens to hundreds of milliseconds. A 128-hash getBlobs call is about 9 KB; a
     * 6-blob transaction 1.7 MB.
     */
    static final int LARGE_REQUEST_BYTES = 64 * 1024;
    /** The reason of a {@code 503}: the large-request queue is full (see {@link RequestHeadCheck}). */
    static final String SERVER_BUSY = "server busy: the request queue is full, try again later";

    /**
     * One request's place in line, and its route's {@link Responder}: its response once ready, whether the connection
     * closes after it, and whether bytes of the request may still be unread then (a refused request's body), so that
     * the close must linger; for the metrics, when the whole request was in, and what its response answered
     * ({@code null} for a refusal) in how many body bytes.
     */
    private final class Slot implements Responder {
        final ChannelHandlerContext ctx;
        final HttpVersion version;
        final boolean keepAlive;
        final HttpHeaders headers;
        Object response;
        boolean close;
        boolean unreadBody;
        /** A {@code 100 Continue}: written in turn, but no request's response. */
        boolean interim;

        final long received = System.nanoTime();
        ResponseSummary summary;
        long bodyBytes;

        Slot(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, HttpHeaders headers) {
            this.ctx = ctx;
            this.version = version;
            this.keepAlive = keepAlive;
            this.headers = headers;
            this.close = !keepAlive;
        }

        @Override
        public HttpVersion version() {
            return version;
        }

        @Override
        public boolean keepAlive() {
            return keepAlive;
        }

        @Override
        public HttpHeaders requestHeaders() {
            return headers;
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
            respond(response, response.contentLength(), summary);
        }

        @Override
        public void respond(Object response, long bodyBytes, ResponseSummary summary) {
            if (ctx.executor().inEventLoop()) {
                ready(this, response, bodyBytes, summary);
                return;
            }
            try {
                ctx.executor().execute(() -> ready(this, response, bodyBytes, summary));
            } catch (RejectedExecutionException stopped) {
                ReferenceCountUtil.release(response);
                LOG.debug("a request answered after the event loop stopped");
            }
        }

        @Override
        public void respondEmpty(HttpResponseStatus status, ResponseSummary summary) {
            respond(empty(version, status, keepAlive), 0, summary);
        }

        @Override
        public void respondText(HttpResponseStatus status, String reason, ResponseSummary summary) {
            FullHttpResponse response = text(version, status, reason, keepAlive);
            respond(response, response.content().readableBytes(), summary);
        }
    }

    private final int maxPipelined;
    private final Executor largeRequests;
    private final ReadThrottle throttle;
    private final ServerMetrics metrics;
    private final ArrayDeque<Slot> line = new ArrayDeque<>();
    /** The route {@link RequestHeadCheck} passed for the request whose whole body comes next. */
    private Route route;
    /** Requests taken whose response is not written yet. */
    private int unwritten;
    /** A response that closes the connection is queued or written: read nothing more, answer nothing more. */
    private boolean closing;

    private boolean inactive;

    EngineApiHandler(int maxPipelined, Executor largeRequests, ReadThrottle throttle, ServerMetrics metrics) {
        if (maxPipelined < 1) {
            throw new IllegalArgumentException("max pipelined " + maxPipelined + " < 1");
        }
        this.maxPipelined = maxPipelined;
        this.largeRequests = largeRequests;
        this.throttle = throttle;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Route next) {
            route = next;
        } else if (msg instanceof RefusedRequest refused) {
            Slot slot = take(ctx, refused.version(), false, EmptyHttpHeaders.INSTANCE);
            slot.unreadBody = true;
            ready(slot, refusal(refused), 0, null);
        } else if (msg instanceof ContinueExpected expected) {
            interim(ctx, expected.version());
        } else if (msg instanceof FullHttpRequest request) {
            try {
                take(ctx, request);
            } finally {
                request.release();
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void take(ChannelHandlerContext ctx, FullHttpRequest request) {
        Slot slot = take(ctx, request.protocolVersion(), HttpUtil.isKeepAlive(request), request.headers());
        Route handler = route;
        route = null;
        if (!request.decoderResult().isSuccess()) { // a body the aggregator could not read whole
            slot.close = true;
            slot.unreadBody = true;
            closing = true;
            ready(slot, empty(slot.version, HttpResponseStatus.BAD_REQUEST, false), 0, null);
            return;
        }
        if (request.content().readableBytes() <= LARGE_REQUEST_BYTES) {
            handler.handle(request.content(), slot);
            return;
        }
        ByteBuf body = request.content().retain();
        try {
            largeRequests.execute(() -> {
                try {
                    if (!ctx.executor().isShuttingDown()) { // else the server is stopping: no reply can be sent
                        handler.handle(body, slot);
                    }
                } finally {
                    body.release();
                }
            });
        } catch (RejectedExecutionException e) {
            body.release(); // the queue filled up while the body came in: refused unparsed, as on its head
            metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
            slot.close = true;
            closing = true;
            throttle.pause();
            ready(slot, text(slot.version, HttpResponseStatus.SERVICE_UNAVAILABLE, SERVER_BUSY, false), 0, null);
        }
    }

    /**
     * A {@code 100 Continue} for the request whose body comes next: in line behind the responses before it, so that it
     * is written after them; it takes no place of a request.
     */
    private void interim(ChannelHandlerContext ctx, HttpVersion version) {
        Slot slot = new Slot(ctx, version, true, EmptyHttpHeaders.INSTANCE);
        slot.interim = true;
        line.add(slot);
        ready(slot, new DefaultFullHttpResponse(version, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER), 0, null);
    }

    /** A new place in line; stops reading at {@code maxPipelined} unwritten responses. */
    private Slot take(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, HttpHeaders headers) {
        Slot slot = new Slot(ctx, version, keepAlive, headers);
        closing |= slot.close;
        line.add(slot);
        if (++unwritten == maxPipelined) {
            metrics.refused(ServerMetrics.Limit.MAX_PIPELINED);
        }
        if (unwritten >= maxPipelined || closing) {
            throttle.pause();
        }
        return slot;
    }

    /** Sets {@code slot}'s response, then writes every response at the head of the line that is ready. */
    private void ready(Slot slot, Object response, long bodyBytes, ResponseSummary summary) {
        if (inactive) {
            ReferenceCountUtil.release(response);
            return;
        }
        slot.response = response;
        slot.bodyBytes = bodyBytes;
        slot.summary = summary;
        ChannelHandlerContext ctx = slot.ctx;
        boolean wrote = false;
        while (!line.isEmpty() && line.peek().response != null) {
            Slot next = line.poll();
            ChannelFuture written = ctx.write(next.response);
            next.response = null;
            wrote = true;
            if (next.interim) {
                continue;
            }
            metrics.responseStarted();
            written.addListener(done -> written(next, done.isSuccess()));
            if (next.close && next.unreadBody) {
                // Closing with unread bytes would reset the connection, the response perhaps unread.
                written.addListener(done -> ctx.pipeline().fireUserEventTriggered(LingeringClose.START));
            } else if (next.close) {
                // The whole request was read, and nothing follows a Connection: close: a FIN follows the
                // response at once (lingering here would hold the connection a second after every
                // per-request client's summary, against --max-connections).
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void written(Slot slot, boolean completed) {
        if (slot.summary != null) {
            metrics.responded(
                    ServerMetrics.HTTP, slot.summary, slot.bodyBytes, System.nanoTime() - slot.received, completed);
        }
        metrics.responseDone(); // after: no response in flight means every one is in the metrics
        if (--unwritten < maxPipelined && !closing) {
            throttle.resume();
        }
    }

    private static FullHttpResponse refusal(RefusedRequest refused) {
        if (refused.contentType() != null) {
            return body(refused.version(), refused.status(), refused.contentType(), refused.reason(), false);
        }
        if (refused.reason() != null) {
            return text(refused.version(), refused.status(), refused.reason(), false);
        }
        FullHttpResponse response = empty(refused.version(), refused.status(), false);
        if (refused.allow() != null) {
            response.headers().set(HttpHeaderNames.ALLOW, refused.allow());
        }
        return response;
    }

    /** A response whose body is {@code reason} and a line feed, as plain text. */
    private static FullHttpResponse text(
            HttpVersion version, HttpResponseStatus status, String reason, boolean keepAlive) {
        return body(version, status, HttpHeaderValues.TEXT_PLAIN + "; charset=utf-8", reason + "\n", keepAlive);
    }

    /** A response whose body is {@code body} in UTF-8, of type {@code contentType}. */
    private static FullHttpResponse body(
            HttpVersion version, HttpResponseStatus status, CharSequence contentType, String body, boolean keepAlive) {
        ByteBuf bytes = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, bytes);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        HttpUtil.setContentLength(response, bytes.readableBytes());
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }

    /**
     * A response without content; the connection closes after it unless {@code keepAlive}. A {@code 204} has no
     * {@code Content-Length} (RFC 9110, 8.6), any other status {@code Content-Length: 0}.
     */
    private static FullHttpResponse empty(HttpVersion version, HttpResponseStatus status, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status);
        if (status.code() != HttpResponseStatus.NO_CONTENT.code()) {
            HttpUtil.setContentLength(response, 0);
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inactive = true;
        for (Slot slot : line) {
            ReferenceCountUtil.release(slot.response);
        }
        line.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
