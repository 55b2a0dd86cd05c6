package io.hexstream.server.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Responds to {@code GET /metrics} (and {@code HEAD}) with every metric in the Prometheus text format
 * 0.0.4, or in OpenMetrics 1.0 text when the scraper's {@code Accept} asks for
 * {@code application/openmetrics-text}; {@code 404} for another path, {@code 405} for another method.
 * The scrape reads counters and gauges (no lock the request path holds) and is written into one pooled
 * buffer, which the channel releases.
 */
final class ScrapeHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger LOG = LoggerFactory.getLogger(ScrapeHandler.class);
    private static final ExpositionFormatWriter PROMETHEUS = PrometheusTextFormatWriter.create();
    private static final ExpositionFormatWriter OPENMETRICS = OpenMetricsTextFormatWriter.create();

    private final PrometheusMetrics metrics;

    ScrapeHandler(PrometheusMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        FullHttpResponse response;
        if (!request.decoderResult().isSuccess()) {
            keepAlive = false;
            response = empty(request, HttpResponseStatus.BAD_REQUEST);
        } else if (!MetricsEndpoint.PATH.equals(new QueryStringDecoder(request.uri()).path())) {
            response = empty(request, HttpResponseStatus.NOT_FOUND);
        } else if (!HttpMethod.GET.equals(request.method()) && !HttpMethod.HEAD.equals(request.method())) {
            response = empty(request, HttpResponseStatus.METHOD_NOT_ALLOWED);
            response.headers().set(HttpHeaderNames.ALLOW, "GET, HEAD");
        } else {
            response = scrape(ctx, request);
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private FullHttpResponse scrape(ChannelHandlerContext ctx, FullHttpRequest request) {
        String accept = request.headers().get(HttpHeaderNames.ACCEPT);
        ExpositionFormatWriter writer = OPENMETRICS.accepts(accept) ? OPENMETRICS : PROMETHEUS;
        ByteBuf body = ctx.alloc().buffer();
        try (ByteBufOutputStream out = new ByteBufOutputStream(body)) {
            writer.write(out, metrics.scrape());
        } catch (IOException | RuntimeException e) {
            body.release();
            LOG.warn("could not write the metrics", e);
            return empty(request, HttpResponseStatus.INTERNAL_SERVER_ERROR);
        }
        int length = body.readableBytes();
        if (HttpMethod.HEAD.equals(request.method())) {
            body.clear();
        }
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), HttpResponseStatus.OK, body);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, writer.getContentType());
        HttpUtil.setContentLength(response, length);
        return response;
    }

    private static FullHttpResponse empty(FullHttpRequest request, HttpResponseStatus status) {
        FullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(), status);
        HttpUtil.setContentLength(response, 0);
        return response;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("closing a metrics connection: {}", cause.toString());
        ctx.close();
    }
}
