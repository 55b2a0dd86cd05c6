package io.hexstream.server.http;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.Refusal;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Resolves each request's {@link Route} in the {@link RouteTable} and judges the request on its head, as the route
 * declares, before the aggregator buffers (or answers {@code 100 Continue} for) a single body byte: a head that does
 * not parse gets {@code 400}, a path not in the table {@code 404} (empty body), a method the path has not {@code 405}
 * (with {@code Allow}), a missing or bad JWT on a route that needs one {@code 401} with the reason as a one-line body,
 * a {@code Content-Length} over the route's body limit {@code 413} (with the route's body, if it gives one), and any
 * other refusal the route makes of the head ({@link Route#rejectHead}) as it answers it. An accepted request's route is
 * passed on just before its head, for {@link EngineApiHandler}; a refused request is replaced by a
 * {@link RefusedRequest}, which {@link EngineApiHandler} answers in turn, its body dropped unread. After a 400 or 401
 * (and after any refusal of a request that asked {@code Expect: 100-continue}, whose client may never send the body)
 * the connection stops reading and closes once answered; after a 404 or 405 it stays open if the request asked for
 * keep-alive. Refusals are logged ({@link RefusalLog}). One instance per connection.
 */
final class RequestHeadCheck extends ChannelInboundHandlerAdapter {
    private final RouteTable routes;
    private final Authenticator authenticator;
    private final RefusalLog log;
    private final ReadThrottle throttle;
    private final ServerMetrics metrics;
    /** Dropping the body of a request refused with keep-alive. */
    private boolean discarding;
    /** A request was refused for good: everything read from now on is dropped. */
    private boolean closing;
    /** The route of the request being judged, once accepted. */
    private Route route;

    /** @param authenticator what {@link Route#needsJwt()} routes are checked with on this port */
    RequestHeadCheck(
            RouteTable routes,
            Authenticator authenticator,
            RefusalLog log,
            ReadThrottle throttle,
            ServerMetrics metrics) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.log = log;
        this.throttle = throttle;
        this.metrics = metrics;
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
                ctx.fireChannelRead(route);
                ctx.fireChannelRead(msg);
                return;
            }
            ReferenceCountUtil.release(msg);
            if (refused.keepAlive()) {
                discarding = !(msg instanceof LastHttpContent);
            } else {
                closing = true;
                throttle.pause();
            }
            log.refused(
                    ctx.channel().remoteAddress(),
                    refused.status().code() + " for " + request.method() + " " + request.uri()
                            + (refused.reason() == null ? "" : ": " + refused.reason()));
            ctx.fireChannelRead(refused);
            return;
        }
        if (discarding && msg instanceof HttpContent content) {
            discarding = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** Why {@code request} is refused, or {@code null} if it may be read (its route then in {@link #route}). */
    private RefusedRequest refusal(HttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            return new RefusedRequest(
                    request.protocolVersion(),
                    HttpResponseStatus.BAD_REQUEST,
                    "malformed HTTP request: " + request.decoderResult().cause().getMessage(),
                    null,
                    false);
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !HttpUtil.is100ContinueExpected(request);
        RouteTable.Path path = routes.path(request.uri());
        if (path == null) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.NOT_FOUND, null, null, keepAlive);
        }
        route = path.route(request.method(), request.headers());
        if (route == null) {
            return new RefusedRequest(
                    request.protocolVersion(), HttpResponseStatus.METHOD_NOT_ALLOWED, null, path.allow(), keepAlive);
        }
        Refusal refusal =
                route.needsJwt() ? authenticator.refusal(request.headers().get(HttpHeaderNames.AUTHORIZATION)) : null;
        if (refusal != null) {
            metrics.jwtRefused(refusal.reason());
            return new RefusedRequest(
                    request.protocolVersion(), HttpResponseStatus.UNAUTHORIZED, refusal.message(), null, false);
        }
        long length = HttpUtil.getContentLength(request, -1L);
        if (length > route.maxBodyBytes()) {
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
            Rejection rejection = route.tooLarge(length);
            return rejection != null
                    ? new RefusedRequest(request.protocolVersion(), rejection)
                    : new RefusedRequest(
                            request.protocolVersion(),
                            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                            null,
                            null,
                            keepAlive);
        }
        Rejection rejection = route.rejectHead(request.headers());
        return rejection == null ? null : new RefusedRequest(request.protocolVersion(), rejection);
    }
}
