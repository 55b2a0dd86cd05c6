package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;

/**
 * The aggregator of request bodies, {@code 413} above the route's body limit ({@link Route#maxBodyBytes()}, at most
 * {@code --max-request-bytes}) whatever the body's framing: a chunked body is counted as it comes and refused at the
 * first chunk past the limit, never aggregated further. Each 413 counted. It writes nothing itself, so that every
 * response leaves in request order: the {@code 413} of a body that grows too large is passed on as a
 * {@link RefusedRequest} (the rest of the body dropped, the connection closed once it is answered), and a {@code 100
 * Continue} as a {@link ContinueExpected}, both for {@link EngineApiHandler} to write in turn. (A
 * {@code Content-Length} too large and an expectation other than {@code 100-continue} are refused on the head by
 * {@link RequestHeadCheck}.)
 */
final class RequestSizeLimit extends HttpObjectAggregator {
    private final ServerMetrics metrics;
    /** The route of the request being read, and its body limit: the route's, at most the port's. */
    private Route route;

    private long limit;
    /** The version of the request being read, and its body bytes so far; {@code null} when none is being read. */
    private HttpVersion reading;

    private long received;

    RequestSizeLimit(int maxRequestBytes, ServerMetrics metrics) {
        super(maxRequestBytes);
        this.metrics = metrics;
        this.limit = maxRequestBytes;
    }

    /** Takes each request's route ({@link RequestHeadCheck} passes it on just before the head) for its body limit. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof Route next) {
            route = next;
            limit = Math.min(next.maxBodyBytes(), maxContentLength());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
        if (msg instanceof HttpRequest request) {
            if (HttpUtil.is100ContinueExpected(request) && HttpUtil.getContentLength(request, -1L) <= limit) {
                out.add(new ContinueExpected(request.protocolVersion()));
            }
            reading = request.protocolVersion();
            received = 0;
        } else if (reading != null && msg instanceof HttpContent content) {
            received += content.content().readableBytes();
            if (received > limit) { // a body without Content-Length (chunked) past its route's limit
                HttpVersion version = reading;
                reading = null;
                releaseCurrentMessage(); // the rest of the body is dropped, as after an oversized head
                metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
                Rejection rejection = route.tooLarge(-1);
                ctx.fireChannelRead(
                        rejection != null
                                ? new RefusedRequest(version, rejection)
                                : new RefusedRequest(version, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, null, null));
                return;
            }
            if (msg instanceof LastHttpContent) {
                reading = null;
            }
        }
        super.decode(ctx, msg, out);
    }

    /** None written here: {@link #decode} passes the expectation on. */
    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        start.headers().remove(HttpHeaderNames.EXPECT);
        return null;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
        ctx.fireChannelRead(new RefusedRequest(
                oversized.protocolVersion(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, null, null));
    }
}
