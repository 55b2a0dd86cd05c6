package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.PrometheusClientParser;
import io.hexstream.server.testing.Scraper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A real scrape after a known sequence of requests, in the text format and in OpenMetrics, read by the Prometheus
 * project's own parsers ({@link PrometheusClientParser}): each accepts it, reads the counts that were sent, and reads
 * every series with the value our strict {@link Exposition} parser reads.
 */
class PrometheusParserTest {
    private static final String MISSING = "0x01" + "ab".repeat(31);
    private static final String V2 = "engine_getBlobsV2";
    private static final String V3 = "engine_getBlobsV3";

    // Each test, not the class: surefire reports a class skipped in @BeforeAll as no test at all.
    @BeforeEach
    void client() {
        PrometheusClientParser.assumeInstalled();
    }

    @Test
    void thePrometheusParsersReadWhatWasSent() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            List<Object> pooled = new ArrayList<>(server.hashes());
            long v2Bytes = post(server, request(1, V2, hashParams(pooled))) // hit: 6 of 6
                    + post(server, request(2, V2, hashParams(pooled))) // hit: 6 of 6
                    + post(
                            server,
                            request(3, V2, hashParams(List.of(pooled.get(0), pooled.get(1), MISSING)))) // miss: 2 of 3
                    + post(server, request(4, V2, "[[\"0x12\"]]")); // -32602
            post(server, request(5, V3, hashParams(pooled.subList(0, 1)))); // hit: 1 of 1
            assertEquals(
                    401,
                    server.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                                    .POST(HttpRequest.BodyPublishers.ofString(request(6, V2, "[[]]")))
                                    .build())
                            .statusCode());
            Scraper scraper = new Scraper(server.server().metricsAddress());
            scraper.settled();

            String text = scraper.get(null).body();
            Map<String, Exposition.Family> prometheus = PrometheusClientParser.prometheus(text);
            assertEquals("counter", prometheus.get("hexstream_rpc_requests").type());
            assertEquals(
                    "histogram",
                    prometheus.get("hexstream_rpc_response_seconds").type());
            assertEquals(
                    "gauge",
                    prometheus.get("hexstream_http_responses_in_flight").type());
            assertEquals(
                    "JSON-RPC replies sent, by method and outcome (ok, or the error code)",
                    prometheus.get("hexstream_rpc_requests").help());
            assertSent(PrometheusClientParser.series(prometheus), v2Bytes);
            assertEquals(
                    PrometheusClientParser.series(Exposition.prometheus(text).families()),
                    PrometheusClientParser.series(prometheus));

            String openMetricsText = scraper.get(Scraper.OPENMETRICS_ACCEPT).body();
            Map<String, Exposition.Family> openMetrics = PrometheusClientParser.openMetrics(openMetricsText);
            assertEquals("counter", openMetrics.get("hexstream_rpc_requests").type());
            assertEquals(
                    "histogram",
                    openMetrics.get("hexstream_rpc_response_seconds").type());
            assertEquals("info", openMetrics.get("jvm_runtime").type());
            assertSent(PrometheusClientParser.series(openMetrics), v2Bytes);
            assertEquals(
                    PrometheusClientParser.series(
                            Exposition.openMetrics(openMetricsText).families()),
                    PrometheusClientParser.series(openMetrics));
        }
    }

    private static void assertSent(Map<String, Double> series, long v2Bytes) {
        assertEquals(3.0, series.get("hexstream_rpc_requests_total{method=\"engine_getBlobsV2\",outcome=\"ok\"}"));
        assertEquals(1.0, series.get("hexstream_rpc_requests_total{method=\"engine_getBlobsV2\",outcome=\"-32602\"}"));
        assertEquals(1.0, series.get("hexstream_rpc_requests_total{method=\"engine_getBlobsV3\",outcome=\"ok\"}"));
        assertEquals(15.0, series.get("hexstream_getblobs_requested_total{method=\"engine_getBlobsV2\"}"));
        assertEquals(14.0, series.get("hexstream_getblobs_available_total{method=\"engine_getBlobsV2\"}"));
        assertEquals(2.0, series.get("hexstream_getblobs_hit_total{method=\"engine_getBlobsV2\"}"));
        assertEquals(1.0, series.get("hexstream_getblobs_miss_total{method=\"engine_getBlobsV2\"}"));
        assertEquals(4.0, series.get("hexstream_rpc_response_seconds_count{method=\"engine_getBlobsV2\"}"));
        assertEquals(
                4.0, series.get("hexstream_rpc_response_seconds_bucket{le=\"+Inf\",method=\"engine_getBlobsV2\"}"));
        assertEquals(1.0, series.get("hexstream_rpc_response_seconds_count{method=\"engine_getBlobsV3\"}"));
        assertEquals((double) v2Bytes, series.get("hexstream_rpc_response_bytes_total{method=\"engine_getBlobsV2\"}"));
        assertEquals(1.0, series.get("hexstream_jwt_refusals_total{reason=\"missing\"}"));
        assertEquals(0.0, series.get("hexstream_jwt_refusals_total{reason=\"signature\"}"));
        assertEquals(0.0, series.get("hexstream_http_responses_in_flight"));
        assertEquals(EngineServerFixture.GENERATED, series.get("hexstream_pool_blobs"));
    }

    /** The body's length. */
    private static long post(EngineServerFixture server, String json) {
        HttpResponse<byte[]> response = server.post(json);
        assertEquals(200, response.statusCode());
        return response.body().length;
    }
}
