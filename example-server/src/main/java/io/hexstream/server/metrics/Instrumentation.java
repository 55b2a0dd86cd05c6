package io.hexstream.server.metrics;

/**
 * What the server is built with for its options: {@link ServerMetrics#NONE} unless {@code --metrics-port} or
 * {@code --access-log} is given, the Prometheus metrics when the port is (to be served on it), wrapped in the
 * {@link AccessLog} when that is on.
 *
 * @param prometheus the metrics to serve, or {@code null} for no metrics port
 * @param metrics what the request path is given
 */
public record Instrumentation(PrometheusMetrics prometheus, ServerMetrics metrics) {
    /**
     * @param metricsPort {@code --metrics-port}, or {@code null} for none
     * @param accessLog {@code --access-log}
     */
    public static Instrumentation of(Integer metricsPort, boolean accessLog) {
        PrometheusMetrics prometheus = metricsPort != null ? new PrometheusMetrics() : null;
        ServerMetrics metrics = prometheus != null ? prometheus : ServerMetrics.NONE;
        return new Instrumentation(prometheus, accessLog ? new AccessLog(metrics) : metrics);
    }
}
