package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.Hex;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.TestBlobs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Each limit of the server, driven once (or a known number of times) on a server of its own, is counted exactly that
 * often under its own label, and no other limit is counted.
 */
class LimitMetricsTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");

    @Test
    void maxConnections() throws Exception {
        try (EngineServerFixture server = start("--max-connections", "1");
                HttpConnection first = HttpConnection.open(server.port())) {
            first.send(HttpConnection.post(server.token(), CALL));
            assertEquals(200, first.readHead().status());
            try (HttpConnection second = HttpConnection.open(server.port())) {
                assertTrue(second.closedByServerWithin(Duration.ofSeconds(2)));
            }
            Exposition metrics = scrape(server); // the metrics port is not limited
            assertOnly(metrics, ServerMetrics.Limit.MAX_CONNECTIONS, 1);
            assertEquals(1, metrics.value("hexstream_http_connections"));
        }
    }

    @Test
    void maxBatchSize() {
        try (EngineServerFixture server = start("--max-batch-size", "2")) {
            assertEquals(
                    200, server.post("[" + CALL + "," + CALL + "," + CALL + "]").statusCode());
            assertEquals(200, server.post("[" + CALL + "," + CALL + "]").statusCode());
            Exposition metrics = scrape(server);
            assertOnly(metrics, ServerMetrics.Limit.MAX_BATCH_SIZE, 1);
            assertEquals(1, metrics.value("hexstream_rpc_requests_total{method=\"none\",outcome=\"-32600\"}"));
        }
    }

    @Test
    void maxResponseBytes() {
        try (EngineServerFixture server = start("--max-response-bytes", Integer.toString(1 << 20))) {
            String six = request(1, "engine_getBlobsV2", hashParams(server.hashes()));
            assertTrue(new String(server.post(six).body(), StandardCharsets.UTF_8).contains("response too large"));
            assertOnly(scrape(server), ServerMetrics.Limit.MAX_RESPONSE_BYTES, 1);
        }
    }

    @Test
    void maxRequestBytes() throws Exception {
        try (EngineServerFixture server = start("--max-request-bytes", "4096");
                HttpConnection connection = HttpConnection.open(server.port())) {
            connection.send(HttpConnection.post(
                    server.token(), request(1, "engine_exchangeCapabilities", "[[\"" + "x".repeat(5000) + "\"]]")));
            assertEquals(413, connection.readHead().status());
            assertOnly(scrape(server), ServerMetrics.Limit.MAX_REQUEST_BYTES, 1);
        }
    }

    @Test
    void idleTimeout() throws Exception {
        try (EngineServerFixture server = start("--idle-timeout", "1");
                HttpConnection idle = HttpConnection.open(server.port())) {
            assertTrue(idle.closedByServerWithin(Duration.ofSeconds(5)));
            assertOnly(scrape(server), ServerMetrics.Limit.IDLE_TIMEOUT, 1);
        }
    }

    @Test
    void writeTimeout() throws Exception {
        try (EngineServerFixture server = start("--write-timeout", "1");
                HttpConnection stalled = HttpConnection.open(server.port())) {
            stalled.socket().setReceiveBufferSize(64 * 1024);
            stalled.send(HttpConnection.post(
                    server.token(), request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)))));
            assertEquals(
                    0, ServerSockets.awaitAtMost(server.port(), 0, Duration.ofSeconds(10)), "closed by the server");
            Exposition metrics = scrape(server);
            assertOnly(metrics, ServerMetrics.Limit.WRITE_TIMEOUT, 1);
            assertEquals(1, metrics.value("hexstream_rpc_responses_abandoned_total{method=\"engine_getBlobsV2\"}"));
            assertEquals(0, metrics.value("hexstream_rpc_response_seconds_count{method=\"engine_getBlobsV2\"}"));
        }
    }

    /** At one pipelined request, every request taken stops the reading until its response is written. */
    @Test
    void maxPipelined() throws Exception {
        try (EngineServerFixture server = start("--max-pipelined", "1");
                HttpConnection connection = HttpConnection.open(server.port())) {
            byte[] one = HttpConnection.post(server.token(), CALL);
            byte[] three = new byte[3 * one.length];
            for (int i = 0; i < 3; i++) {
                System.arraycopy(one, 0, three, i * one.length, one.length);
            }
            connection.send(three);
            for (int i = 0; i < 3; i++) {
                HttpConnection.Head head = connection.readHead();
                assertEquals(200, head.status());
                connection.readBody(head);
            }
            assertOnly(scrape(server), ServerMetrics.Limit.MAX_PIPELINED, 3);
        }
    }

    /**
     * One ingest thread and its queue of 16: of a batch of 40 transactions, the first runs, 16 wait and 23 are answered
     * "server busy" (the dispatcher submits them all in microseconds; one takes milliseconds of KZG).
     */
    @Test
    void serverBusy() {
        String tx = Hex.encodeToString(
                BlobTransactionBuilder.withCellProofs(TestBlobs.first(1))
                        .nonce(0)
                        .build(),
                true);
        try (EngineServerFixture server = start("--ingest-threads", "1")) {
            List<String> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                calls.add(request(i, "eth_sendRawTransaction", "[\"" + tx + "\"]"));
            }
            String replies =
                    new String(server.post("[" + String.join(",", calls) + "]").body(), StandardCharsets.UTF_8);
            assertEquals(23, replies.split("\"err\":\"server busy\"", -1).length - 1);
            assertOnly(scrape(server), ServerMetrics.Limit.SERVER_BUSY, 23);
        }
    }

    /** A server with the metrics port and the command-line option {@code limit} sets to {@code value}. */
    private static EngineServerFixture start(String limit, String value) {
        return EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0", limit, value);
    }

    private static Exposition scrape(EngineServerFixture server) {
        return new Scraper(server.server().metricsAddress()).settled();
    }

    /** {@code limit} counted {@code times}, every other limit 0. */
    private static void assertOnly(Exposition metrics, ServerMetrics.Limit limit, int times) {
        for (ServerMetrics.Limit each : ServerMetrics.Limit.values()) {
            assertEquals(
                    each == limit ? times : 0,
                    metrics.value("hexstream_limit_refusals_total{limit=\""
                            + each.name().toLowerCase(Locale.ROOT) + "\"}"),
                    each.label());
        }
    }
}
