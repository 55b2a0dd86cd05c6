package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.Scraper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * After a known sequence of requests (getBlobs hits and misses, each error the methods answer, a batch, refused JWTs, a
 * refused transaction), every request counter, getBlobs counter and histogram count of {@code /metrics} equals what was
 * sent, exactly, and the response bytes equal the bodies received.
 */
class MetricsTest {
    private static final String MISSING = "0x01" + "ab".repeat(31);
    private static final String V1 = "engine_getBlobsV1";
    private static final String V2 = "engine_getBlobsV2";
    private static final String V3 = "engine_getBlobsV3";
    private static final String CAPABILITIES = "engine_exchangeCapabilities";
    private static final String SEND = "eth_sendRawTransaction";

    /** Body bytes received, by method label. */
    private final Map<String, Long> bytes = new HashMap<>();
    /** HTTP responses received, by method label. */
    private final Map<String, Integer> responses = new HashMap<>();

    @Test
    void everyCounterEqualsWhatWasSent() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            List<Object> pooled = new ArrayList<>(server.hashes());
            List<Object> twoAndAMiss = List.of(pooled.get(0), pooled.get(1), MISSING);
            List<Object> tooMany = new ArrayList<>(server.cycledHashes(129));

            post(server, V2, request(1, V2, hashParams(pooled))); // hit: 6 of 6
            post(server, V2, request(2, V2, hashParams(twoAndAMiss))); // miss: 2 of 3, null
            post(server, V3, request(3, V3, hashParams(twoAndAMiss))); // miss: 2 of 3
            post(server, V3, request(4, V3, hashParams(pooled.subList(0, 1)))); // hit: 1 of 1
            post(server, V1, request(5, V1, hashParams(pooled))); // -38005: osaka
            post(server, V2, request(6, V2, hashParams(tooMany))); // -38004
            post(server, V2, request(7, V2, "[[\"0x12\"]]")); // -32602
            post(server, "unknown", request(8, "engine_nothing", "[]")); // -32601
            post(server, "invalid", "{\"jsonrpc\":\"2.0\",\"id\":9}"); // -32600
            post(server, "none", "{\"jsonrpc\":"); // -32700
            post(server, SEND, request(10, SEND, "[\"0x01\"]")); // refused: not type 3
            post(
                    server,
                    "batch",
                    "[" + request(11, CAPABILITIES, "[[]]") + "," + request(12, V3, hashParams(pooled)) + "]");
            assertEquals(401, status(server, null));
            assertEquals(401, status(server, "Bearer " + "x.y.z"));
            assertEquals(401, status(server, "Basic dXNlcjpwYXNz"));

            Exposition metrics = new Scraper(server.server().metricsAddress()).settled();
            assertEquals(
                    Map.of(
                            requests(V2, "ok"),
                            2.0,
                            requests(V2, "-38004"),
                            1.0,
                            requests(V2, "-32602"),
                            1.0,
                            requests(V3, "ok"),
                            3.0,
                            requests(V1, "-38005"),
                            1.0,
                            requests("unknown", "-32601"),
                            1.0,
                            requests("invalid", "-32600"),
                            1.0,
                            requests("none", "-32700"),
                            1.0,
                            requests(SEND, "-32000"),
                            1.0,
                            requests(CAPABILITIES, "ok"),
                            1.0),
                    metrics.families().get("hexstream_rpc_requests_total").samples());

            assertEquals(6 + 3, metrics.value(method("hexstream_getblobs_requested_total", V2)));
            assertEquals(6 + 2, metrics.value(method("hexstream_getblobs_available_total", V2)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_hit_total", V2)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_miss_total", V2)));
            assertEquals(3 + 1 + 6, metrics.value(method("hexstream_getblobs_requested_total", V3)));
            assertEquals(2 + 1 + 6, metrics.value(method("hexstream_getblobs_available_total", V3)));
            assertEquals(2, metrics.value(method("hexstream_getblobs_hit_total", V3)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_miss_total", V3)));
            assertEquals(
                    0, metrics.value(method("hexstream_getblobs_requested_total", V1)), "refused before the lookup");

            for (Map.Entry<String, Integer> sent : responses.entrySet()) {
                String method = sent.getKey();
                assertEquals(
                        (double) sent.getValue(),
                        metrics.value(method("hexstream_rpc_response_seconds_count", method)),
                        method);
                assertEquals(
                        (double) sent.getValue(),
                        metrics.value("hexstream_rpc_response_seconds_bucket{le=\"+Inf\",method=\"" + method + "\"}"),
                        method);
                assertEquals(
                        (double) bytes.get(method),
                        metrics.value(method("hexstream_rpc_response_bytes_total", method)),
                        method);
            }
            assertEquals(
                    responses.size(),
                    metrics.families().get("hexstream_rpc_response_seconds").samples().keySet().stream()
                            .filter(series -> series.startsWith("hexstream_rpc_response_seconds_count"))
                            .count());

            assertEquals(1, metrics.value("hexstream_jwt_refusals_total{reason=\"missing\"}"));
            assertEquals(1, metrics.value("hexstream_jwt_refusals_total{reason=\"malformed\"}"));
            assertEquals(1, metrics.value("hexstream_jwt_refusals_total{reason=\"not_bearer\"}"));
            assertEquals(0, metrics.value("hexstream_jwt_refusals_total{reason=\"signature\"}"));
            assertEquals(
                    Map.of("hexstream_transactions_refused_total{check=\"type\"}", 1.0),
                    metrics.families()
                            .get("hexstream_transactions_refused_total")
                            .samples());
            assertEquals(0, metrics.value("hexstream_transactions_accepted_total"));
            assertEquals(0, metrics.value("hexstream_kzg_verification_seconds_count"), "refused before KZG");
            assertEquals(EngineServerFixture.GENERATED, metrics.value("hexstream_pool_blobs"));
            assertEquals(EngineServerFixture.GENERATED * 131_072.0, metrics.value("hexstream_pool_blob_bytes"));
            assertEquals(0, metrics.value("hexstream_ingest_queue_depth"));
            assertEquals(0, metrics.value("hexstream_rpc_responses_abandoned_total"));
        }
    }

    private void post(EngineServerFixture server, String label, String json) {
        HttpResponse<byte[]> response = server.post(json);
        assertEquals(200, response.statusCode());
        bytes.merge(label, (long) response.body().length, Long::sum);
        responses.merge(label, 1, Integer::sum);
    }

    private static int status(EngineServerFixture server, String authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                .POST(HttpRequest.BodyPublishers.ofString(request(1, CAPABILITIES, "[[]]")));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return server.send(request.build()).statusCode();
    }

    private static String requests(String method, String outcome) {
        return "hexstream_rpc_requests_total{method=\"" + method + "\",outcome=\"" + outcome + "\"}";
    }

    private static String method(String name, String method) {
        return name + "{method=\"" + method + "\"}";
    }
}
