package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Metrics on and off, side by side (-Pfull): two servers over the same pool in one JVM, one with metrics and the access
 * log's metrics path on, one off, each answering 128-blob getBlobsV2 requests in alternating rounds, every answer 200
 * with the same length from both; at {@code -Dtest.logLevel=info} it prints the median time to last byte of each, read
 * whole (and dropped) by the client. No time is asserted: speed is measured in jmh.
 */
@Tag("full") // the measurement: -Pfull
class MetricsOverheadTest {
    private static final int ROUNDS = Integer.getInteger("rounds", 10);
    private static final int PER_ROUND = Integer.getInteger("perRound", 20);

    @Test
    void measure() throws Exception {
        try (EngineServerFixture off = EngineServerFixture.start(Fork.OSAKA);
                EngineServerFixture on = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0");
                HttpConnection toOff = HttpConnection.open(off.port());
                HttpConnection toOn = HttpConnection.open(on.port())) {
            String json = request(1, "engine_getBlobsV2", hashParams(off.cycledHashes(128)));
            Latencies offTimes = new Latencies();
            Latencies onTimes = new Latencies();
            for (int round = -2; round < ROUNDS; round++) { // two rounds of warm-up
                Latencies offRound = round < 0 ? new Latencies() : offTimes;
                Latencies onRound = round < 0 ? new Latencies() : onTimes;
                for (int i = 0; i < PER_ROUND; i++) {
                    offRound.add(fetch(toOff, off, json));
                    onRound.add(fetch(toOn, on, json));
                }
            }
            Measurements.report(
                    "128-blob getBlobsV2, time to last byte, median of %d: metrics off %.2f ms, on %.2f ms (%+.1f"
                            + " %%)%n",
                    offTimes.count(),
                    offTimes.median() / 1e6,
                    onTimes.median() / 1e6,
                    100.0 * (onTimes.median() - offTimes.median()) / offTimes.median());
        }
    }

    private static long fetch(HttpConnection connection, EngineServerFixture server, String json) throws Exception {
        byte[] request = HttpConnection.post(server.token(), json);
        long started = System.nanoTime();
        connection.send(request);
        HttpConnection.Head head = connection.readHead();
        assertEquals(200, head.status(), head.text());
        assertEquals(34 + 128 * 275_096L + 127 + 2, connection.discard(head.contentLength()));
        return System.nanoTime() - started;
    }
}
