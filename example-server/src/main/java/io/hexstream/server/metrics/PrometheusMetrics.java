package io.hexstream.server.metrics;

import io.hexstream.server.auth.Refusal;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PooledByteBufAllocator;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The server's metrics in a Prometheus registry of their own, with the client's JVM metrics: counters and gauges are
 * the client's lock-free ones, so that the event loops never wait. Names are {@code hexstream_*} with their unit; the
 * README's "Metrics" section lists them. What is not counted on the request path (the pool's size, the ingest queue,
 * Netty's direct memory) is read at each scrape, through {@link #gaugePool}, {@link #gaugeIngestQueue} and
 * {@link #gaugeHexCache}.
 */
public final class PrometheusMetrics implements ServerMetrics {
    /**
     * Time to last byte, seconds: 1 ms to 4 s (Prysm's getBlobs buckets reach 4 s; the consensus client gives up at 1
     * s).
     */
    static final double[] RESPONSE_SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4};
    /** KZG batch verification and fsync, seconds: 100 µs to 4 s. */
    static final double[] WORK_SECONDS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4
    };

    private static final double NANOS_PER_SECOND = 1e9;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests = Counter.builder()
            .name("hexstream_rpc_requests_total")
            .help("JSON-RPC replies sent, by method and outcome (ok, or the error code)")
            .labelNames("method", "outcome")
            .register(registry);
    private final Histogram timeToLastByte = Histogram.builder()
            .name("hexstream_rpc_response_seconds")
            .help("Time from the whole HTTP request read to the last byte of its response handed to the socket,"
                    + " by method (batch for a batch)")
            .classicOnly()
            .classicUpperBounds(RESPONSE_SECONDS)
            .labelNames("method")
            .register(registry);
    private final Counter responseBytes = Counter.builder()
            .name("hexstream_rpc_response_bytes_total")
            .help("Body bytes of the HTTP responses written to their last byte, by method")
            .labelNames("method")
            .register(registry);
    private final Counter abandoned = Counter.builder()
            .name("hexstream_rpc_responses_abandoned_total")
            .help("HTTP responses whose connection closed before their last byte was written, by method")
            .labelNames("method")
            .register(registry);
    private final Counter transports = Counter.builder()
            .name("hexstream_transport_responses_total")
            .help("Responses written to their last byte or abandoned, by transport: http and h2 (HTTP/1.1 and"
                    + " HTTP/2 responses on TCP), ipc-http and ipc-h2 (the same on the IPC socket), ws and ipc"
                    + " (replies over WebSocket and newline-delimited IPC, also counted by method with the HTTP"
                    + " responses)")
            .labelNames("transport")
            .register(registry);
    private final Counter hashesRequested = Counter.builder()
            .name("hexstream_getblobs_requested_total")
            .help("Versioned hashes asked for by getBlobs calls answered, by method (geth's engine/getblobs/requested)")
            .labelNames("method")
            .register(registry);
    private final Counter hashesAvailable = Counter.builder()
            .name("hexstream_getblobs_available_total")
            .help("Versioned hashes asked for whose blob the method could serve, by method (geth's available)")
            .labelNames("method")
            .register(registry);
    private final Counter hits = Counter.builder()
            .name("hexstream_getblobs_hit_total")
            .help("getBlobs calls whose every hash was available, by method (geth's hit)")
            .labelNames("method")
            .register(registry);
    private final Counter misses = Counter.builder()
            .name("hexstream_getblobs_miss_total")
            .help("getBlobs calls with at least one hash unavailable, by method (geth's miss)")
            .labelNames("method")
            .register(registry);
    private final Gauge connections = Gauge.builder()
            .name("hexstream_http_connections")
            .help("Engine API connections open")
            .register(registry);
    private final Gauge inFlight = Gauge.builder()
            .name("hexstream_http_responses_in_flight")
            .help("HTTP responses handed to their connection and not written to their last byte yet")
            .register(registry);
    private final Gauge stalled = Gauge.builder()
            .name("hexstream_http_connections_stalled")
            .help("Connections whose responses have waited for the reader (not writable) for more than 1 s")
            .register(registry);
    private final Counter streams = Counter.builder()
            .name("hexstream_http2_streams_total")
            .help("HTTP/2 streams by event: opened, reset_by_client, refused (over SETTINGS_MAX_CONCURRENT_STREAMS),"
                    + " stalled (a reply waiting on flow control for more than 1 s)")
            .labelNames("event")
            .register(registry);
    private final Counter written = Counter.builder()
            .name("hexstream_http_written_bytes_total")
            .help("Bytes handed to the Engine API sockets (headers and bodies)")
            .register(registry);
    private final Counter jwtRefusals = Counter.builder()
            .name("hexstream_jwt_refusals_total")
            .help("Requests refused with 401 for their JWT, by reason")
            .labelNames("reason")
            .register(registry);
    private final Counter limitRefusals = Counter.builder()
            .name("hexstream_limit_refusals_total")
            .help("Connections or requests refused, or connections closed, by a limit of the server"
                    + " (the option's name; server_busy: the ingest or the request queue full)")
            .labelNames("limit")
            .register(registry);
    private final Counter accepted = Counter.builder()
            .name("hexstream_transactions_accepted_total")
            .help("Blob transactions accepted (pooled now or before)")
            .register(registry);
    private final Counter refused = Counter.builder()
            .name("hexstream_transactions_refused_total")
            .help("Blob transactions refused, by the check that failed")
            .labelNames("check")
            .register(registry);
    private final Histogram kzg = Histogram.builder()
            .name("hexstream_kzg_verification_seconds")
            .help("Time of one transaction's KZG batch verification")
            .classicOnly()
            .classicUpperBounds(WORK_SECONDS)
            .register(registry);
    private final Histogram fsync = Histogram.builder()
            .name("hexstream_store_fsync_seconds")
            .help("Time of one fsync of the blob store (a file, or its directory)")
            .classicOnly()
            .classicUpperBounds(WORK_SECONDS)
            .register(registry);

    /** The server's metrics, Netty's pooled direct memory and the JVM's, in a registry of their own. */
    public PrometheusMetrics() {
        ByteBufAllocator allocator = ByteBufAllocator.DEFAULT;
        if (allocator instanceof ByteBufAllocatorMetricProvider provider) {
            gauge(
                    "hexstream_netty_direct_memory_allocated_bytes",
                    "Direct memory the Netty allocator holds from the system ("
                            + allocator.getClass().getSimpleName() + ")",
                    () -> provider.metric().usedDirectMemory());
        }
        if (allocator instanceof PooledByteBufAllocator pooled) {
            gauge(
                    "hexstream_netty_direct_memory_in_use_bytes",
                    "Direct memory of the Netty pool in buffers in use",
                    pooled::pinnedDirectMemory);
        }
        JvmMetrics.builder().register(registry);
        for (Limit limit : Limit.values()) { // every fixed label shown from the start, at 0
            limitRefusals.labelValues(limit.label());
        }
        for (Refusal.Reason reason : Refusal.Reason.values()) {
            jwtRefusals.labelValues(reason.label());
        }
    }

    /** Reads, at each scrape, the blobs pooled (and so their bytes). */
    public void gaugePool(LongSupplier blobs, long bytesPerBlob) {
        gauge("hexstream_pool_blobs", "Blobs in the pool", blobs);
        gauge(
                "hexstream_pool_blob_bytes",
                "Bytes of the blobs in the pool (without proofs)",
                () -> blobs.getAsLong() * bytesPerBlob);
    }

    /** Reads, at each scrape, the blocking calls waiting for an ingest thread. */
    public void gaugeIngestQueue(LongSupplier depth) {
        gauge(
                "hexstream_ingest_queue_depth",
                "Blocking calls (eth_sendRawTransaction) waiting for an ingest thread",
                depth);
    }

    /** Reads, at each scrape, the hex cache's bytes of digits (direct memory) and its entries. */
    public void gaugeHexCache(LongSupplier bytes, LongSupplier entries) {
        gauge(
                "hexstream_hex_cache_bytes",
                "Bytes of hex digits the hex cache holds (blobs' in direct memory, proofs' on the heap)",
                bytes);
        gauge("hexstream_hex_cache_entries", "Blobs whose digits the hex cache holds", entries);
    }

    private void gauge(String name, String help, LongSupplier value) {
        GaugeWithCallback.builder()
                .name(name)
                .help(help)
                .callback(callback -> callback.call(value.getAsLong()))
                .register(registry);
    }

    /** Every metric's current value, as the exposition formats write them. */
    public MetricSnapshots scrape() {
        return registry.scrape();
    }

    @Override
    public void replied(String method, ReplyError error) {
        requests.labelValues(method, ResponseSummary.outcome(error)).inc();
    }

    @Override
    public void responded(
            String transport, ResponseSummary summary, long bodyBytes, long nanosToLastByte, boolean completed) {
        transports.labelValues(transport).inc();
        if (completed) {
            timeToLastByte.labelValues(summary.method()).observe(nanosToLastByte / NANOS_PER_SECOND);
            responseBytes.labelValues(summary.method()).inc(bodyBytes);
        } else {
            abandoned.labelValues(summary.method()).inc();
        }
    }

    @Override
    public void blobsLookedUp(String method, int requested, int available) {
        hashesRequested.labelValues(method).inc(requested);
        hashesAvailable.labelValues(method).inc(available);
        (available == requested ? hits : misses).labelValues(method).inc();
    }

    @Override
    public void connectionOpened() {
        connections.inc();
    }

    @Override
    public void connectionClosed() {
        connections.dec();
    }

    @Override
    public void responseStarted() {
        inFlight.inc();
    }

    @Override
    public void responseDone() {
        inFlight.dec();
    }

    @Override
    public void http2Stream(StreamEvent event) {
        streams.labelValues(event.label()).inc();
    }

    @Override
    public void stalled(boolean stalled) {
        this.stalled.inc(stalled ? 1 : -1);
    }

    @Override
    public void bytesWritten(long bytes) {
        written.inc(bytes);
    }

    @Override
    public void jwtRefused(Refusal.Reason reason) {
        jwtRefusals.labelValues(reason.label()).inc();
    }

    @Override
    public void refused(Limit limit) {
        limitRefusals.labelValues(limit.label()).inc();
    }

    @Override
    public void transactionAccepted() {
        accepted.inc();
    }

    @Override
    public void transactionRefused(String check) {
        refused.labelValues(check.toLowerCase(Locale.ROOT).replace(' ', '_')).inc();
    }

    @Override
    public void kzgVerified(long nanos) {
        kzg.observe(nanos / NANOS_PER_SECOND);
    }

    @Override
    public void fsynced(long nanos) {
        fsync.observe(nanos / NANOS_PER_SECOND);
    }
}
