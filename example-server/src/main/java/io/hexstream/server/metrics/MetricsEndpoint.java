package io.hexstream.server.metrics;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The pipeline of {@code --metrics-port}, on the Engine API server's own event loops: {@code GET
 * /metrics} served by {@link ScrapeHandler}. Requests are small (a scraper sends a head only): a
 * body over {@link #MAX_REQUEST_BYTES} is refused with 413. No JWT: bind it to a private address
 * ({@code --metrics-host}, loopback by default).
 */
public final class MetricsEndpoint extends ChannelInitializer<Channel> {
    /** The one path served. */
    public static final String PATH = "/metrics";
    static final int MAX_REQUEST_BYTES = 8 * 1024;

    private final PrometheusMetrics metrics;

    public MetricsEndpoint(PrometheusMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES),
                new ScrapeHandler(metrics));
    }
}
