package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Thirty-two clients ask for 128 blobs each and stop reading. The metrics endpoint goes on answering (promptly: it
 * shares the event loops, which never wait on a stalled socket), and shows them: 32 connections, 32 responses in
 * flight, 32 stalled once they have been unwritable for a second. Once they hang up, all three are back to 0 and the 32
 * responses are counted abandoned, not timed.
 */
class StalledReadersMetricsTest {
    private static final int STALLED = 32;

    @Test
    void theEndpointAnswersAndCountsStalledReaders() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            Scraper scraper = new Scraper(server.server().metricsAddress());
            scraper.scrape(); // a first scrape loads the classes
            byte[] request = HttpConnection.post(
                    server.token(), request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128))));
            List<HttpConnection> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < STALLED; i++) {
                    HttpConnection connection = HttpConnection.open(server.port());
                    stalled.add(connection);
                    connection.send(request);
                }
                Exposition during = await(scraper, m -> m.value("hexstream_http_connections_stalled") == STALLED);
                assertEquals(STALLED, during.value("hexstream_http_connections_stalled"));
                assertEquals(STALLED, during.value("hexstream_http_responses_in_flight"));
                assertEquals(STALLED, during.value("hexstream_http_connections"));
                long slowest = 0;
                for (int i = 0; i < 10; i++) {
                    long started = System.nanoTime();
                    assertEquals(STALLED, scraper.scrape().value("hexstream_http_connections_stalled"));
                    slowest = Math.max(slowest, System.nanoTime() - started);
                }
                Measurements.report(
                        "metrics scrape with %d stalled readers: slowest of 10 %.1f ms%n", STALLED, slowest / 1e6);
            } finally {
                for (HttpConnection connection : stalled) {
                    connection.close();
                }
            }
            // The three gauges are told at different points of a close (the connection count when the
            // channel closes, the stall when its pipeline hears of it), so a scrape from another thread
            // may fall between them: wait for all three.
            Exposition after = await(
                    scraper,
                    m -> m.value("hexstream_http_connections") == 0
                            && m.value("hexstream_http_responses_in_flight") == 0
                            && m.value("hexstream_http_connections_stalled") == 0);
            assertEquals(0, after.value("hexstream_http_connections_stalled"));
            assertEquals(STALLED, after.value("hexstream_rpc_responses_abandoned_total{method=\"engine_getBlobsV2\"}"));
            assertEquals(0, after.value("hexstream_rpc_response_seconds_count{method=\"engine_getBlobsV2\"}"));
        }
    }

    private static Exposition await(Scraper scraper, Predicate<Exposition> done) throws InterruptedException {
        return scraper.await(done);
    }
}
