package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.util.List;

/**
 * The aggregator of request bodies, {@code 413} above {@code --max-request-bytes}, each 413 counted. It writes nothing
 * itself, so that every response leaves in request order: the {@code 413} of a body that grows too large is passed on
 * as a {@link RefusedRequest} (the rest of the body dropped, the connection closed once it is answered), and a
 * {@code 100 Continue} as a {@link ContinueExpected}, both for {@link EngineApiHandler} to write in turn. (A
 * {@code Content-Length} too large and an expectation other than {@code 100-continue} are refused on the head by
 * {@link RequestHeadCheck}.)
 */
final class RequestSizeLimit extends HttpObjectAggregator {
    private final ServerMetrics metrics;

    RequestSizeLimit(int maxRequestBytes, ServerMetrics metrics) {
        super(maxRequestBytes);
        this.metrics = metrics;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
        if (msg instanceof HttpRequest request
                && HttpUtil.is100ContinueExpected(request)
                && HttpUtil.getContentLength(request, -1L) <= maxContentLength()) {
            out.add(new ContinueExpected(request.protocolVersion()));
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
