package io.hexstream.server.http;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.Refusal;
import io.hexstream.server.exchange.InOrderExchange;
import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.text.PeerText;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Resolves each request's {@link Route} in the {@link RouteTable} and judges the request on its head, as the route
 * declares, before the aggregator buffers (or answers {@code 100 Continue} for) a single body byte: a head that does
 * not parse gets {@code 400}, a major version other than 1 {@code 505} (a later HTTP/1.x is served as HTTP/1.1; RFC
 * 9110 6.2), an HTTP/1.1 request without {@code Host} or any request with two {@code 400} (RFC 9112 3.2), a transfer
 * coding other than {@code chunked} {@code 501} (RFC 9112 6.1), a path not in the table {@code 404} (empty body), a
 * method the path has not {@code 405} (with {@code Allow}), {@code Authorization} more than once on a route that needs
 * a JWT {@code 400}, a missing or bad JWT there {@code 401} with the reason as a one-line body, an expectation other
 * than {@code 100-continue} {@code 417}, a {@code Content-Length} over the route's body limit {@code 413} (with the
 * route's body, if it gives one), and any other refusal the route makes of the head ({@link Route#rejectHead}) as it
 * answers it; a body that would go to the large-request executor while its queue is full gets {@code 503} "server busy"
 * (never parsed on the event loop, its body not read). An accepted request's route is passed on just before its head,
 * for {@link EngineApiHandler}; a refused request is replaced by a {@link RefusedRequest}, which
 * {@link EngineApiHandler} answers in turn, its body dropped unread. After any refusal the connection stops reading and
 * ends once answered ({@link LingeringClose}): a client refused once is likely refused again, and its connection would
 * hold a place under {@link ConnectionLimit}. A request taken that passed the JWT (on a port without JWT: any request
 * taken) marks its connection as proven there. Refusals are logged ({@link RefusalLog}). One instance per connection.
 */
final class RequestHeadCheck extends ChannelInboundHandlerAdapter {
    private static final String HEX_DIGITS = "0123456789abcdefABCDEF";

    private final RouteTable routes;
    private final Authenticator authenticator;
    private final RefusalLog log;
    private final ReadThrottle throttle;
    private final ServerMetrics metrics;
    private final Executor largeRequests;
    /** A request was refused for good: everything read from now on is dropped. */
    private boolean closing;
    /** The route of the request being judged, once accepted. */
    private Route route;

    /**
     * @param authenticator what {@link Route#needsJwt()} routes are checked with on this port
     * @param largeRequests where {@link EngineApiHandler} hands large bodies: a large one is refused on its head while
     *     its queue is full
     */
    RequestHeadCheck(
            RouteTable routes,
            Authenticator authenticator,
            RefusalLog log,
            ReadThrottle throttle,
            ServerMetrics metrics,
            Executor largeRequests) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.log = log;
        this.throttle = throttle;
        this.metrics = metrics;
        this.largeRequests = largeRequests;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request) {
            RefusedRequest refused = refusal(request);
            if (refused == null) {
                if (route.needsJwt() || authenticator == Authenticator.NONE) {
                    ConnectionLimit.proven(ctx.channel()); // it passed the JWT, or the port has none
                }
                ctx.fireChannelRead(route);
                ctx.fireChannelRead(msg);
                return;
            }
            ReferenceCountUtil.release(msg);
            closing = true;
            throttle.pause();
            log.refused(
                    ctx.channel().remoteAddress(),
                    refused.status().code() + " for "
                            + PeerText.escape(request.method().name()) + " "
                            + PeerText.escape(request.uri())
                            + (refused.reason() == null ? "" : ": " + refused.reason()));
            ctx.fireChannelRead(refused);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** Why {@code request} is refused, or {@code null} if it may be read (its route then in {@link #route}). */
    private RefusedRequest refusal(HttpRequest request) {
        RefusedRequest framing = framingRefusal(request);
        if (framing != null) {
            return framing;
        }
        RouteTable.Path path = routes.path(request.uri());
        if (path == null) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.NOT_FOUND, null, null);
        }
        route = path.route(request.method(), request.headers());
        if (route == null) {
            return new RefusedRequest(
                    request.protocolVersion(), HttpResponseStatus.METHOD_NOT_ALLOWED, null, path.allow());
        }
        if (route.needsJwt() && authenticator != Authenticator.NONE) {
            if (request.headers().getAll(HttpHeaderNames.AUTHORIZATION).size() > 1) {
                return new RefusedRequest(
                        request.protocolVersion(),
                        HttpResponseStatus.BAD_REQUEST,
                        "Authorization more than once",
                        null);
            }
            Refusal refusal = authenticator.refusal(request.headers().get(HttpHeaderNames.AUTHORIZATION));
            if (refusal != null) {
                metrics.jwtRefused(refusal.reason());
                return new RefusedRequest(
                        request.protocolVersion(), HttpResponseStatus.UNAUTHORIZED, refusal.message(), null);
            }
        }
        if (unsupportedExpectation(request)) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.EXPECTATION_FAILED, null, null);
        }
        long length = HttpUtil.getContentLength(request, -1L);
        if (length > route.maxBodyBytes()) {
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
            Rejection rejection = route.tooLarge(length);
            return rejection != null
                    ? new RefusedRequest(request.protocolVersion(), rejection)
                    : new RefusedRequest(
                            request.protocolVersion(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, null, null);
        }
        Rejection rejection = route.rejectHead(request.protocolVersion(), request.headers());
        if (rejection != null) {
            return new RefusedRequest(request.protocolVersion(), rejection);
        }
        if (length > InOrderExchange.LARGE_REQUEST_BYTES && queueFull()) {
            metrics.refused(ServerMetrics.Limit.SERVER_BUSY);
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.SERVICE_UNAVAILABLE,
                    EngineApiHandler.SERVER_BUSY,
                    null);
        }
        return null;
    }

    /**
     * Why {@code request}'s framing is refused (RFC 9112: a malformed head, a major version other than 1, {@code Host}
     * missing in HTTP/1.1 or repeated, a transfer coding other than {@code chunked}), or {@code null}; a later 1.x is
     * served as 1.1.
     */
    private static RefusedRequest framingRefusal(HttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.BAD_REQUEST,
                    "malformed HTTP request: "
                            + PeerText.escape(request.decoderResult().cause().getMessage()),
                    null);
        }
        HttpVersion version = request.protocolVersion();
        if (version.majorVersion() != 1) {
            return new RefusedRequest(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                    "HTTP/1.1 only, not " + PeerText.escape(version.text()),
                    null);
        }
        if (version.minorVersion() > 1) {
            request.setProtocolVersion(HttpVersion.HTTP_1_1); // RFC 9110 6.2: a later 1.x is served as 1.1
        }
        List<String> hosts = request.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || hosts.isEmpty() && request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.BAD_REQUEST,
                    hosts.isEmpty() ? "an HTTP/1.1 request needs a Host header" : "Host more than once",
                    null);
        }
        if (hosts.size() == 1 && !isHost(hosts.get(0))) {
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.BAD_REQUEST,
                    "Host is not host[:port]: " + PeerText.escape(hosts.get(0)),
                    null);
        }
        String coding = unsupportedTransferCoding(request);
        if (coding != null) {
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.NOT_IMPLEMENTED,
                    "transfer coding " + PeerText.escape(coding) + " not implemented: chunked only",
                    null);
        }
        return null;
    }

    /**
     * Whether {@code value} is a {@code Host} field value (RFC 9110 7.2: {@code uri-host [ ":" port ]}, RFC 3986 3.2.2
     * and 3.2.3), or empty: an IP literal in brackets, or a name or IPv4 address of unreserved characters,
     * percent-encodings and sub-delims, then digits after a colon.
     */
    static boolean isHost(String value) {
        int end = value.length();
        int colon = value.lastIndexOf(':');
        if (colon > value.lastIndexOf(']')) {
            for (int i = colon + 1; i < end; i++) {
                if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                    return false;
                }
            }
            end = colon;
        }
        boolean literal = end > 0 && value.charAt(0) == '[';
        if (literal && (end < 3 || value.charAt(end - 1) != ']')) {
            return false;
        }
        for (int i = literal ? 1 : 0; i < (literal ? end - 1 : end); i++) {
            char c = value.charAt(i);
            if (c == '%' && !literal) {
                if (i + 2 >= end
                        || HEX_DIGITS.indexOf(value.charAt(i + 1)) < 0
                        || HEX_DIGITS.indexOf(value.charAt(i + 2)) < 0) {
                    return false;
                }
                i += 2;
            } else if (!(c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || "-._~!$&'()*+,;=".indexOf(c) >= 0
                    || literal && c == ':')) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first transfer coding of {@code request} other than {@code chunked} (RFC 9112 6.1: {@code 501}), e.g.
     * {@code gzip} of {@code Transfer-Encoding: gzip, chunked}; or {@code null}.
     */
    private static String unsupportedTransferCoding(HttpRequest request) {
        for (String value : request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
            for (String coding : value.split(",", -1)) {
                if (!HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(coding.trim())) {
                    return coding.trim();
                }
            }
        }
        return null;
    }

    /** An {@code Expect} other than {@code 100-continue} (RFC 9110, 10.1.1), which HTTP/1.0 does not have. */
    private static boolean unsupportedExpectation(HttpRequest request) {
        String expect = request.headers().get(HttpHeaderNames.EXPECT);
        return expect != null
                && request.protocolVersion().compareTo(HttpVersion.HTTP_1_1) >= 0
                && !HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect);
    }

    /**
     * Whether the large-request executor would refuse a request now: a {@link ThreadPoolExecutor} whose queue is full.
     * Any other executor (a test's {@code Runnable::run}) never refuses.
     */
    private boolean queueFull() {
        return largeRequests instanceof ThreadPoolExecutor pool
                && pool.getQueue().remainingCapacity() == 0;
    }
}
