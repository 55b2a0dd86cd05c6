package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponse;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.ssz.GetBlobsResponse;
import io.hexstream.server.ssz.SszGetBlobs;
import io.hexstream.server.ssz.SszRoute;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ReferenceCounted;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of the Engine API, per connection: each whole request ({@link FullHttpRequest}, its
 * head already checked by {@link RequestHeadCheck}) is parsed and handed to the
 * {@link JsonRpcDispatcher}; each refused one ({@link RefusedRequest}) is answered with its status. The
 * responses go out in request order (HTTP/1.1 pipelining), each as soon as it and all before it are
 * ready: a reply that waits for the ingest executor holds back the replies to later requests, never the
 * event loop. A request body over {@link #LARGE_REQUEST_BYTES} is parsed and dispatched on the
 * large-request executor (on the loop only if that is full), its buffer retained until then. A request
 * on an {@link SszRoute} (ports serving them) is answered by {@link SszGetBlobs} on the loop, in the same
 * line.
 *
 * <p>Flow control: at most {@code maxPipelined} requests are taken before their responses are written
 * (to the socket); at that many the connection stops reading ({@link ReadThrottle}) until one is
 * written, so a client that sends without reading costs bounded memory. A response waiting its turn holds only
 * references (its body is produced as the socket drains); on disconnect the waiting ones are released.
 */
final class EngineApiHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(EngineApiHandler.class);
    private static final byte[] NULL_ID = "null".getBytes(StandardCharsets.US_ASCII);
    /**
     * Bodies larger than this are parsed and dispatched on the large-request executor, not on the event
     * loop: a 16 MiB batch takes the parser and the dispatcher tens to hundreds of milliseconds. A
     * 128-hash getBlobs call is about 9 KB; a 6-blob transaction 1.7 MB.
     */
    static final int LARGE_REQUEST_BYTES = 64 * 1024;
    /** How long a connection ended after a refusal waits, output shut, before it closes. */
    private static final long LINGER_MILLIS = 1000;

    /**
     * One request's place in line: its response once ready, whether the connection closes after it, and
     * whether bytes of the request may still be unread then (a refused request's body), so that the
     * close must linger; for the metrics, when the whole request was in, and what its JSON-RPC response
     * answered ({@code null} for a refusal) in how many body bytes.
     */
    private static final class Slot {
        ReferenceCounted response;
        boolean close;
        boolean unreadBody;
        final long received = System.nanoTime();
        ResponseSummary exchange;
        long bodyBytes;
    }

    private final RequestParser parser;
    private final JsonRpcDispatcher dispatcher;
    private final ResponseRenderer renderer;
    private final int maxPipelined;
    private final Executor largeRequests;
    private final ReadThrottle throttle;
    private final ServerMetrics metrics;
    /** The binary SSZ routes' endpoint, or {@code null} if this port serves none. */
    private final SszGetBlobs ssz;
    private final ArrayDeque<Slot> line = new ArrayDeque<>();
    /** Requests taken whose response is not written yet. */
    private int unwritten;
    /** A response that closes the connection is queued or written: read nothing more, answer nothing more. */
    private boolean closing;
    private boolean inactive;

    EngineApiHandler(RequestParser parser, JsonRpcDispatcher dispatcher, ResponseRenderer renderer, int maxPipelined,
            Executor largeRequests, ReadThrottle throttle, ServerMetrics metrics, SszGetBlobs ssz) {
        if (maxPipelined < 1) {
            throw new IllegalArgumentException("max pipelined " + maxPipelined + " < 1");
        }
        this.parser = parser;
        this.dispatcher = dispatcher;
        this.renderer = renderer;
        this.maxPipelined = maxPipelined;
        this.largeRequests = largeRequests;
        this.throttle = throttle;
        this.metrics = metrics;
        this.ssz = ssz;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof RefusedRequest refused) {
            Slot slot = take(ctx, !refused.keepAlive());
            slot.unreadBody = true;
            ready(ctx, slot, refusal(refused));
        } else if (msg instanceof FullHttpRequest request) {
            try {
                handle(ctx, request);
            } finally {
                request.release();
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void handle(ChannelHandlerContext ctx, FullHttpRequest request) {
        HttpVersion version = request.protocolVersion();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        Slot slot = take(ctx, !keepAlive);
        if (!request.decoderResult().isSuccess()) { // a body the aggregator could not read whole
            slot.close = true;
            slot.unreadBody = true;
            closing = true;
            ready(ctx, slot, empty(version, HttpResponseStatus.BAD_REQUEST, false));
            return;
        }
        SszRoute route = ssz == null ? null : SszRoute.ofUri(request.uri());
        if (route != null) {
            SszGetBlobs.Answer answer = ssz.answer(route, version, keepAlive, request.content());
            ReferenceCounted response = answer.response() != null ? answer.response()
                    : answer.reason() == null ? empty(version, answer.status(), keepAlive)
                    : refusal(new RefusedRequest(version, answer.status(), answer.reason(), keepAlive));
            slot.exchange = answer.exchange();
            slot.bodyBytes = bodyBytes(response);
            ready(ctx, slot, response);
            return;
        }
        if (request.content().readableBytes() > LARGE_REQUEST_BYTES) {
            ByteBuf body = request.content().retain();
            try {
                largeRequests.execute(() -> {
                    try {
                        answer(ctx, slot, version, keepAlive, body);
                    } finally {
                        body.release();
                    }
                });
                return;
            } catch (RejectedExecutionException e) {
                body.release(); // the executor is full: answered here, as a small request would be
            }
        }
        answer(ctx, slot, version, keepAlive, request.content());
    }

    /** Parses {@code body} and dispatches its requests; on the event loop, or on the large-request executor. */
    private void answer(ChannelHandlerContext ctx, Slot slot, HttpVersion version, boolean keepAlive, ByteBuf body) {
        RequestParser.Parsed parsed;
        try {
            parsed = parser.parse(body);
        } catch (RpcException e) {
            metrics.replied(ServerMetrics.NO_METHOD, e.error());
            Replies failure = new Replies(List.of(RpcReply.failure(NULL_ID, e.error(), e.getMessage())), false,
                    new ResponseSummary(ServerMetrics.NO_METHOD, 0, 0, e.error()));
            if (ctx.executor().inEventLoop()) {
                respond(ctx, slot, version, keepAlive, failure);
                return;
            }
            try {
                ctx.executor().execute(() -> respond(ctx, slot, version, keepAlive, failure));
            } catch (RejectedExecutionException stopped) {
                LOG.debug("a request answered after the event loop stopped");
            }
            return;
        }
        dispatcher.dispatch(parsed.requests(), parsed.batch(), ctx.executor(),
                replies -> respond(ctx, slot, version, keepAlive, replies));
    }

    private void respond(ChannelHandlerContext ctx, Slot slot, HttpVersion version, boolean keepAlive, Replies replies) {
        if (inactive) {
            replies.release();
            return;
        }
        ReferenceCounted response = replies.isEmpty() ? empty(version, HttpResponseStatus.OK, keepAlive) // notifications only
                : renderer.render(version, keepAlive, replies);
        slot.exchange = replies.summary();
        slot.bodyBytes = bodyBytes(response);
        ready(ctx, slot, response);
    }

    /** A new place in line; stops reading at {@code maxPipelined} unwritten responses. */
    private Slot take(ChannelHandlerContext ctx, boolean close) {
        Slot slot = new Slot();
        slot.close = close;
        closing |= close;
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
    private void ready(ChannelHandlerContext ctx, Slot slot, ReferenceCounted response) {
        if (inactive) {
            response.release();
            return;
        }
        slot.response = response;
        boolean wrote = false;
        while (!line.isEmpty() && line.peek().response != null) {
            Slot next = line.poll();
            metrics.responseStarted();
            ChannelFuture written = ctx.write(next.response);
            next.response = null;
            wrote = true;
            written.addListener(done -> written(ctx, next, done.isSuccess()));
            if (next.close && next.unreadBody) {
                written.addListener(done -> closeGently(ctx));
            } else if (next.close) {
                // The whole request was read, and nothing follows a Connection: close: a FIN follows the
                // response at once (lingering here would hold the connection a second after every
                // per-request client's exchange, against --max-connections).
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }

    /**
     * Ends the connection after a response to a request whose body may still be arriving (refused on its
     * head, or not readable whole): a FIN first and the close {@link #LINGER_MILLIS} later, because
     * closing with unread bytes sends a reset, which can make the client drop the response before it
     * reads it.
     */
    private static void closeGently(ChannelHandlerContext ctx) {
        if (ctx.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput().addListener(shut -> ctx.executor().schedule(() -> {
                ctx.close();
            }, LINGER_MILLIS, TimeUnit.MILLISECONDS));
        } else {
            ctx.close();
        }
    }

    private void written(ChannelHandlerContext ctx, Slot slot, boolean completed) {
        if (slot.exchange != null) {
            metrics.responded(slot.exchange, slot.bodyBytes, System.nanoTime() - slot.received, completed);
        }
        metrics.responseDone(); // after: no response in flight means every one is in the metrics
        if (--unwritten < maxPipelined && !closing) {
            throttle.resume();
        }
    }

    /** The body's length: a streamed {@link JsonResponse}'s or {@link GetBlobsResponse}'s exact length, or a full response's content. */
    private static long bodyBytes(ReferenceCounted response) {
        return response instanceof JsonResponse json ? json.body().length()
                : response instanceof GetBlobsResponse ssz ? ssz.length()
                : response instanceof FullHttpResponse full ? full.content().readableBytes() : 0;
    }

    private static FullHttpResponse refusal(RefusedRequest refused) {
        if (refused.reason() == null) {
            FullHttpResponse response = empty(refused.version(), refused.status(), refused.keepAlive());
            if (refused.status() == HttpResponseStatus.METHOD_NOT_ALLOWED) {
                response.headers().set(HttpHeaderNames.ALLOW, HttpMethod.POST.name());
            }
            return response;
        }
        ByteBuf text = Unpooled.copiedBuffer(refused.reason() + "\n", StandardCharsets.UTF_8);
        FullHttpResponse response = new DefaultFullHttpResponse(refused.version(), refused.status(), text);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN + "; charset=utf-8");
        HttpUtil.setContentLength(response, text.readableBytes());
        HttpUtil.setKeepAlive(response, refused.keepAlive());
        return response;
    }

    /** A response without content; the connection closes after it unless {@code keepAlive}. */
    private static FullHttpResponse empty(HttpVersion version, HttpResponseStatus status, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status);
        HttpUtil.setContentLength(response, 0);
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
