/**
 * What an operator sees: {@link io.hexstream.server.metrics.ServerMetrics}, the one interface the request path calls
 * (its {@code NONE} does nothing: metrics off), the Prometheus metrics behind it
 * ({@link io.hexstream.server.metrics.PrometheusMetrics}, written by
 * {@link io.hexstream.server.metrics.MetricsEndpoint}, which the wiring serves as a route of its own port), the access
 * log ({@link io.hexstream.server.metrics.AccessLog}) and {@link io.hexstream.server.metrics.Instrumentation}, which of
 * them the options ask for. Labels come from fixed sets only, never from client input. A JSON-RPC reply is counted by
 * {@link io.hexstream.server.metrics.ServerMetrics#replied}, an HTTP response by
 * {@link io.hexstream.server.metrics.ServerMetrics#responded} with its
 * {@link io.hexstream.server.metrics.ResponseSummary}: request, reply and response are the words of {@code rpc}'s
 * package documentation.
 */
package io.hexstream.server.metrics;
