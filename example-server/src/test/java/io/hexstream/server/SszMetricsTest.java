package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.SszBlobs;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binary SSZ routes in the metrics, as JSON-RPC calls are: method {@code ssz_getBlobsVn}, the outcome codes of the
 * same refusals, the getBlobs counters and the response histogram and bytes; and the unauthenticated {@code --rpc-port}
 * does not serve them.
 */
class SszMetricsTest {
    private static final VersionedHash MISSING = VersionedHash.decode("0x01" + "ab".repeat(31));
    private static final String V2 = "ssz_getBlobsV2";
    private static final String V3 = "ssz_getBlobsV3";

    @Test
    void everyCounterEqualsWhatWasSent() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            List<VersionedHash> pooled = server.hashes();
            List<VersionedHash> twoAndAMiss = List.of(pooled.get(0), pooled.get(1), MISSING);
            long bytes = 0;
            bytes += post(server, "/engine/v1/blobs/v2", SszBlobs.request(pooled), 200); // hit: 6 of 6
            bytes += post(server, "/engine/v1/blobs/v2", SszBlobs.request(twoAndAMiss), 204); // miss: 2 of 3
            long v3Bytes = post(server, "/engine/v1/blobs/v3", SszBlobs.request(twoAndAMiss), 200); // miss: 2 of 3
            long v1Bytes = post(server, "/engine/v1/blobs/v1", SszBlobs.request(pooled), 404); // osaka
            bytes += post(server, "/engine/v1/blobs/v2", new byte[] {8, 0, 0, 0}, 400); // bad offset
            byte[] tooMany = SszBlobs.request(new ArrayList<>(server.cycledHashes(129)));
            assertEquals(
                    413, SszBlobs.post(server, "/engine/v1/blobs/v2", tooMany).statusCode()); // on the head

            Exposition metrics = new Scraper(server.server().metricsAddress()).settled();
            assertEquals(
                    Map.of(
                            requests(V2, "ok"),
                            2.0,
                            requests(V2, "-32602"),
                            1.0,
                            requests(V3, "ok"),
                            1.0,
                            requests("ssz_getBlobsV1", "-32601"),
                            1.0),
                    metrics.families().get("hexstream_rpc_requests_total").samples());
            assertEquals(6 + 3, metrics.value(method("hexstream_getblobs_requested_total", V2)));
            assertEquals(6 + 2, metrics.value(method("hexstream_getblobs_available_total", V2)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_hit_total", V2)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_miss_total", V2)));
            assertEquals(3, metrics.value(method("hexstream_getblobs_requested_total", V3)));
            assertEquals(2, metrics.value(method("hexstream_getblobs_available_total", V3)));
            assertEquals(1, metrics.value(method("hexstream_getblobs_miss_total", V3)));
            assertEquals(3, metrics.value(method("hexstream_rpc_response_seconds_count", V2)));
            assertEquals(1, metrics.value(method("hexstream_rpc_response_seconds_count", V3)));
            assertEquals(1, metrics.value(method("hexstream_rpc_response_seconds_count", "ssz_getBlobsV1")));
            assertEquals((double) bytes, metrics.value(method("hexstream_rpc_response_bytes_total", V2)));
            assertEquals((double) v3Bytes, metrics.value(method("hexstream_rpc_response_bytes_total", V3)));
            assertEquals(
                    (double) v1Bytes, metrics.value(method("hexstream_rpc_response_bytes_total", "ssz_getBlobsV1")));
            assertEquals(1, metrics.value("hexstream_limit_refusals_total{limit=\"max_request_bytes\"}"));
        }
    }

    @Test
    void theUnauthenticatedPortDoesNotServeThem(@TempDir Path dataDir) {
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, dataDir)) {
            HttpResponse<byte[]> response = server.withoutJwt()
                    .send(HttpRequest.newBuilder(server.withoutJwt().uri().resolve("/engine/v1/blobs/v2"))
                            .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[] {4, 0, 0, 0}))
                            .build());
            assertEquals(404, response.statusCode());
            assertEquals(
                    200,
                    SszBlobs.post(server, "/engine/v1/blobs/v2", new byte[] {4, 0, 0, 0})
                            .statusCode());
        }
    }

    /** POSTs {@code body}, expects {@code status}; returns the body's length. */
    private static long post(EngineServerFixture server, String path, byte[] body, int status) {
        HttpResponse<byte[]> response = SszBlobs.post(server, path, body);
        assertEquals(status, response.statusCode());
        return response.body().length;
    }

    private static String requests(String method, String outcome) {
        return "hexstream_rpc_requests_total{method=\"" + method + "\",outcome=\"" + outcome + "\"}";
    }

    private static String method(String name, String method) {
        return name + "{method=\"" + method + "\"}";
    }
}
