package io.hexstream.server.metrics;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What {@code GET /metrics} on {@code --metrics-port} answers: every metric in the Prometheus text format 0.0.4, or in
 * OpenMetrics 1.0 text when the scraper's {@code Accept} asks for {@code application/openmetrics-text}. A scrape reads
 * counters and gauges (no lock the request path holds) and the JVM's metrics, a scan of every thread's state among
 * them: it may take milliseconds, so the wiring runs it off the I/O threads. No JWT: bind the port to a private address
 * ({@code --metrics-host}, loopback by default). Thread-safe.
 */
public final class MetricsEndpoint {
    /** The one path served. */
    public static final String PATH = "/metrics";

    private static final ExpositionFormatWriter PROMETHEUS = PrometheusTextFormatWriter.create();
    private static final ExpositionFormatWriter OPENMETRICS = OpenMetricsTextFormatWriter.create();

    private final PrometheusMetrics metrics;

    public MetricsEndpoint(PrometheusMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Scrapes every metric and writes it to {@code out} in the format {@code accept} asks for.
     *
     * @param accept the scraper's {@code Accept} header, or {@code null}
     * @return the content type of what was written, e.g. {@code text/plain; version=0.0.4; charset=utf-8}
     * @throws IOException from {@code out}
     */
    public String write(String accept, OutputStream out) throws IOException {
        ExpositionFormatWriter writer = OPENMETRICS.accepts(accept) ? OPENMETRICS : PROMETHEUS;
        writer.write(out, metrics.scrape());
        return writer.getContentType();
    }
}
