package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;

/** The aggregator of request bodies, {@code 413} above {@code --max-request-bytes}, each 413 counted. */
final class RequestSizeLimit extends HttpObjectAggregator {
    private final ServerMetrics metrics;

    RequestSizeLimit(int maxRequestBytes, ServerMetrics metrics) {
        super(maxRequestBytes);
        this.metrics = metrics;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
        super.handleOversizedMessage(ctx, oversized);
    }
}
