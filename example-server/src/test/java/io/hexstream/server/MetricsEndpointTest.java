package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.AccessLog;
import io.hexstream.server.metrics.Instrumentation;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.ServerProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --metrics-port}: {@code GET /metrics} in the Prometheus text format, or OpenMetrics when the scraper asks,
 * each parsed by a strict parser of its grammar with a {@code HELP} for every family; nothing else on that port; a
 * taken port is a one-line start-up error; and without the option no port is bound and the request path is given the
 * no-op metrics.
 */
class MetricsEndpointTest {
    /**
     * Every family the server defines but three (the JVM's come besides); these three have labels only (a method, a
     * check) and so appear with their first sample.
     */
    private static final Set<String> SAMPLED_LATER = Set.of(
            "hexstream_rpc_responses_abandoned_total",
            "hexstream_getblobs_miss_total",
            "hexstream_transactions_refused_total");

    private static final Set<String> SERVER_FAMILIES = Set.of(
            "hexstream_rpc_requests_total",
            "hexstream_rpc_response_seconds",
            "hexstream_rpc_response_bytes_total",
            "hexstream_transport_responses_total",
            "hexstream_getblobs_requested_total",
            "hexstream_getblobs_available_total",
            "hexstream_getblobs_hit_total",
            "hexstream_http_connections",
            "hexstream_http_responses_in_flight",
            "hexstream_http_connections_stalled",
            "hexstream_http_written_bytes_total",
            "hexstream_jwt_refusals_total",
            "hexstream_limit_refusals_total",
            "hexstream_transactions_accepted_total",
            "hexstream_kzg_verification_seconds",
            "hexstream_store_fsync_seconds",
            "hexstream_pool_blobs",
            "hexstream_pool_blob_bytes",
            "hexstream_ingest_queue_depth",
            "hexstream_netty_direct_memory_allocated_bytes",
            "hexstream_hex_cache_bytes",
            "hexstream_hex_cache_entries");

    @Test
    void servesThePrometheusTextFormatAndOpenMetricsWhenAsked() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            server.post(EngineServerFixture.request(
                    1,
                    "engine_getBlobsV2",
                    EngineServerFixture.hashParams(server.hashes()))); // so that the labelled families have samples
            Scraper scraper = new Scraper(server.server().metricsAddress());

            HttpResponse<String> text = scraper.get(null);
            assertEquals(200, text.statusCode());
            assertEquals(
                    "text/plain; version=0.0.4; charset=utf-8",
                    text.headers().firstValue("Content-Type").orElseThrow());
            Exposition prometheus = Exposition.prometheus(text.body());
            Set<String> hexstream = prometheus.families().keySet().stream()
                    .filter(name -> name.startsWith("hexstream_"))
                    .collect(Collectors.toSet());
            assertEquals(SERVER_FAMILIES, hexstream);
            assertTrue(SAMPLED_LATER.stream().noneMatch(hexstream::contains));
            assertTrue(prometheus.families().containsKey("jvm_memory_used_bytes"), "the JVM's metrics");
            assertEquals(
                    "histogram",
                    prometheus.families().get("hexstream_rpc_response_seconds").type());

            HttpResponse<String> open = scraper.get(Scraper.OPENMETRICS_ACCEPT);
            assertEquals(200, open.statusCode());
            assertEquals(
                    "application/openmetrics-text; version=1.0.0; charset=utf-8",
                    open.headers().firstValue("Content-Type").orElseThrow());
            Exposition openMetrics = Exposition.openMetrics(open.body());
            assertTrue(
                    openMetrics.families().containsKey("hexstream_rpc_requests"),
                    "OpenMetrics names a counter without _total");
            assertEquals(
                    1, openMetrics.value("hexstream_rpc_requests_total{method=\"engine_getBlobsV2\",outcome=\"ok\"}"));
        }
    }

    @Test
    void answersNothingButGetMetrics() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.server().metricsAddress().getPort();
            assertEquals(
                    404,
                    client.send(
                                    HttpRequest.newBuilder(URI.create(base + "/"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode());
            HttpResponse<Void> post = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/metrics"))
                            .POST(HttpRequest.BodyPublishers.ofString("x"))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
            assertEquals(405, post.statusCode());
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
            assertEquals(
                    200,
                    client.send(
                                    HttpRequest.newBuilder(URI.create(base + "/metrics?name[]=x"))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding())
                            .statusCode());
        }
    }

    @Test
    void aTakenMetricsPortIsAOneLineStartupError(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerProcess.Run run = ServerProcess.run(
                    dir,
                    "metrics-port-taken",
                    "--port",
                    Integer.toString(ServerProcess.freePort()),
                    "--data-dir",
                    dir.resolve("data").toString(),
                    "--generate",
                    "0",
                    "--metrics-port",
                    Integer.toString(taken.getLocalPort()));
            assertEquals(1, run.exitCode());
            assertEquals("--metrics-port " + taken.getLocalPort() + " on 127.0.0.1 is in use\n", run.stderr());
        }
    }

    @Test
    void metricsOffMeanNoPortAndTheNoOpOnTheRequestPath() {
        assertSame(ServerMetrics.NONE, Instrumentation.of(null, false).metrics());
        assertNull(Instrumentation.of(null, false).prometheus());
        assertSame(
                ServerMetrics.NONE,
                ((AccessLog) Instrumentation.of(null, true).metrics()).metrics(),
                "the access log alone records nothing else");
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            assertNull(server.server().metricsAddress());
        }
    }
}
