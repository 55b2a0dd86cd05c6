package io.hexstream.server.http;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.Refusal;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.ssz.GetBlobsRequestDecoder;
import io.hexstream.server.ssz.SszRoute;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;

/**
 * Judges each request on its head, before the aggregator buffers (or answers {@code 100 Continue} for)
 * a single body byte: a head that does not parse gets {@code 400}, a path other than {@code /} (or, on a
 * port serving them, an {@link SszRoute}) gets {@code 404} (empty body), a method other than POST
 * {@code 405}, a missing or bad JWT {@code 401} with the reason as a one-line body, and an SSZ request
 * whose {@code Content-Length} passes {@link GetBlobsRequestDecoder#MAX_BODY_BYTES} {@code 413}. A refused request is replaced by a {@link RefusedRequest}, which
 * {@link EngineApiHandler} answers in turn; its body is dropped unread. After a 400 or 401 (and after any
 * refusal of a request that asked {@code Expect: 100-continue}, whose client may never send the body)
 * the connection stops reading and closes once answered; after a 404 or 405 it stays open if the
 * request asked for keep-alive. Refusals are logged ({@link RefusalLog}). One instance per connection.
 */
final class RequestHeadCheck extends ChannelInboundHandlerAdapter {
    private final Authenticator authenticator;
    private final RefusalLog log;
    private final ReadThrottle throttle;
    private final ServerMetrics metrics;
    private final boolean sszRoutes;
    /** Dropping the body of a request refused with keep-alive. */
    private boolean discarding;
    /** A request was refused for good: everything read from now on is dropped. */
    private boolean closing;

    /** @param sszRoutes whether this port serves the {@link SszRoute}s */
    RequestHeadCheck(Authenticator authenticator, RefusalLog log, ReadThrottle throttle, ServerMetrics metrics,
            boolean sszRoutes) {
        this.authenticator = authenticator;
        this.log = log;
        this.throttle = throttle;
        this.metrics = metrics;
        this.sszRoutes = sszRoutes;
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
            log.refused(ctx.channel().remoteAddress(), refused.status().code() + " for " + request.method() + " "
                    + request.uri() + (refused.reason() == null ? "" : ": " + refused.reason()));
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

    /** Why {@code request} is refused, or {@code null} if it may be read. */
    private RefusedRequest refusal(HttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.BAD_REQUEST,
                    "malformed HTTP request: " + request.decoderResult().cause().getMessage(), false);
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request) && !HttpUtil.is100ContinueExpected(request);
        SszRoute route = sszRoutes ? SszRoute.ofUri(request.uri()) : null;
        if (route == null && !"/".equals(new QueryStringDecoder(request.uri()).path())) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.NOT_FOUND, null, keepAlive);
        }
        if (!HttpMethod.POST.equals(request.method())) {
            return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.METHOD_NOT_ALLOWED, null, keepAlive);
        }
        Refusal refusal = authenticator.refusal(request.headers().get(HttpHeaderNames.AUTHORIZATION));
        if (refusal == null) {
            long length = HttpUtil.getContentLength(request, -1L);
            if (route != null && length > GetBlobsRequestDecoder.MAX_BODY_BYTES) {
                metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
                return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                        "GetBlobsRequest of " + length + " bytes, at most " + GetBlobsRequestDecoder.MAX_BODY_BYTES
                                + " (128 versioned hashes)", false);
            }
            return null;
        }
        metrics.jwtRefused(refusal.reason());
        return new RefusedRequest(request.protocolVersion(), HttpResponseStatus.UNAUTHORIZED, refusal.message(), false);
    }
}
