package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.exchange.InOrderExchange;
import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.exchange.Reply;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests of one HTTP/1.1 connection, in line ({@link InOrderExchange}: responses in request order, which is
 * HTTP/1.1 pipelining; bodies over {@link InOrderExchange#LARGE_REQUEST_BYTES} off the event loop; reads paused at
 * {@code maxPipelined} unwritten responses, {@link ReadThrottle}): each whole request ({@link FullHttpRequest}, its
 * head already checked by {@link RequestHeadCheck}, which passed its {@link Route} just before it) is handed to its
 * route with an {@link Http1Responder}; each refused one ({@link RefusedRequest}) is answered with its status; a
 * {@link ContinueExpected} is answered {@code 100 Continue}. Every response, those of the handlers before this one
 * included, is written here, as HTTP/1.1 says: the request's version, its keep-alive, {@code Content-Length}; a
 * response that closes the connection stops the reading. When the large-request executor's queue is full the request is
 * refused unparsed with {@code 503} (on its head by {@link RequestHeadCheck}, before its body is read, when its
 * {@code Content-Length} says it is large; here, once the body is whole, when the queue filled up meanwhile or the body
 * came without a length), and the connection closes after the answer.
 */
final class EngineApiHandler extends InOrderExchange {
    private static final Logger LOG = LoggerFactory.getLogger(EngineApiHandler.class);
    /** The reason of a {@code 503}: the large-request queue is full (see {@link RequestHeadCheck}). */
    static final String SERVER_BUSY = "server busy: the request queue is full, try again later";

    /**
     * One request's place in line, and its route's {@link Http1Responder}: whether the connection closes after its
     * response, and whether bytes of the request may still be unread then (a refused request's body), so that the close
     * must linger.
     */
    private final class Slot extends Place implements Http1Responder {
        final HttpVersion version;
        final boolean keepAlive;
        boolean close;
        boolean unreadBody;

        Slot(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, HttpHeaders headers) {
            super(ctx, headers);
            this.version = version;
            this.keepAlive = keepAlive;
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
        public void respond(Object response, long bodyBytes, ResponseSummary summary) {
            reply(new Reply.Message(response), bodyBytes, summary);
        }
    }

    /** The route {@link RequestHeadCheck} passed for the request whose whole body comes next. */
    private Route route;

    /** @param transport the label of its responses in the metrics, e.g. {@link ServerMetrics#HTTP} */
    EngineApiHandler(int maxPipelined, Executor largeRequests, ServerMetrics metrics, String transport) {
        super(maxPipelined, largeRequests, metrics, transport);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof Route next) {
            route = next;
        } else if (msg instanceof RefusedRequest refused) {
            Slot slot = take(ctx, refused.version(), false, EmptyHttpHeaders.INSTANCE);
            slot.unreadBody = true;
            slot.respond(refusal(refused), 0, null);
        } else if (msg instanceof ContinueExpected expected) {
            interim(
                    new Slot(ctx, expected.version(), true, EmptyHttpHeaders.INSTANCE),
                    new DefaultFullHttpResponse(
                            expected.version(), HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
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
            closing();
            slot.respond(
                    response(
                            slot.version,
                            HttpResponseStatus.BAD_REQUEST,
                            EmptyHttpHeaders.INSTANCE,
                            Unpooled.EMPTY_BUFFER,
                            false),
                    0,
                    null);
            return;
        }
        if (!handle(ctx, request.content(), slot, handler::handle)) {
            // the queue filled up while the body came in: refused unparsed, as on its head
            slot.close = true;
            closing();
            pauseReading();
            slot.respond(text(slot.version, HttpResponseStatus.SERVICE_UNAVAILABLE, SERVER_BUSY), 0, null);
        }
    }

    /** A new place in line; a request that closes the connection stops the reading. */
    private Slot take(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, HttpHeaders headers) {
        Slot slot = new Slot(ctx, version, keepAlive, headers);
        if (slot.close) {
            closing();
        }
        take(slot);
        return slot;
    }

    /** The HTTP/1.1 response for {@code reply}, made for the request's version and keep-alive. */
    @Override
    protected Object encode(Place place, Reply reply) {
        Slot slot = (Slot) place;
        if (reply instanceof Reply.Streamed streamed) {
            return new StreamedResponse(slot.version, streamed.status(), slot.keepAlive, streamed.body());
        }
        if (reply instanceof Reply.Whole whole) {
            return response(slot.version, whole.status(), whole.headers(), whole.content(), slot.keepAlive);
        }
        if (reply instanceof Reply.Empty empty) {
            return response(
                    slot.version, empty.status(), EmptyHttpHeaders.INSTANCE, Unpooled.EMPTY_BUFFER, slot.keepAlive);
        }
        return ((Reply.Message) reply).message();
    }

    @Override
    protected void sent(ChannelHandlerContext ctx, Place place, ChannelFuture written) {
        Slot slot = (Slot) place;
        if (slot.close && slot.unreadBody) {
            // Closing with unread bytes would reset the connection, the response perhaps unread.
            written.addListener(done -> ctx.pipeline().fireUserEventTriggered(LingeringClose.START));
        } else if (slot.close) {
            // The whole request was read, and nothing follows a Connection: close: a FIN follows the response at
            // once (lingering here would hold the connection a second after every per-request client's summary,
            // against --max-connections).
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse refusal(RefusedRequest refused) {
        if (refused.contentType() != null) {
            return response(
                    refused.version(),
                    refused.status(),
                    contentType(refused.contentType()),
                    utf8(refused.reason()),
                    false);
        }
        if (refused.reason() != null) {
            return text(refused.version(), refused.status(), refused.reason());
        }
        FullHttpResponse response =
                response(refused.version(), refused.status(), EmptyHttpHeaders.INSTANCE, Unpooled.EMPTY_BUFFER, false);
        if (refused.allow() != null) {
            response.headers().set(HttpHeaderNames.ALLOW, refused.allow());
        }
        return response;
    }

    /** A response that closes the connection, its body {@code reason} and a line feed, as plain text. */
    private static FullHttpResponse text(HttpVersion version, HttpResponseStatus status, String reason) {
        return response(
                version,
                status,
                contentType(HttpHeaderValues.TEXT_PLAIN + "; charset=utf-8"),
                utf8(reason + "\n"),
                false);
    }

    private static HttpHeaders contentType(CharSequence contentType) {
        return DefaultHttpHeadersFactory.headersFactory().newHeaders().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    }

    private static ByteBuf utf8(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }

    /**
     * A whole response: {@code headers}, then {@code Content-Length} (the content's, unless {@code headers} give one; a
     * {@code 204} has none, RFC 9110 8.6), then the connection closes after it unless {@code keepAlive}.
     */
    private static FullHttpResponse response(
            HttpVersion version, HttpResponseStatus status, HttpHeaders headers, ByteBuf content, boolean keepAlive) {
        FullHttpResponse response = new DefaultFullHttpResponse(version, status, content);
        response.headers().set(headers);
        if (status.code() != HttpResponseStatus.NO_CONTENT.code()
                && !response.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            HttpUtil.setContentLength(response, content.readableBytes());
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        return response;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
