package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Limits per server and per connection: {@code --max-connections} refuses more at accept, and {@code --write-timeout}
 * abandons a response that makes no progress (connection closed, body released: the leak detector would say otherwise).
 */
class ConnectionLimitsTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");

    private static void exchange(EngineServerFixture server, HttpConnection connection) throws Exception {
        connection.send(HttpConnection.post(server.token(), CALL));
        assertEquals(200, connection.readHead().status());
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAtAccept() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "2");
                HttpConnection first = HttpConnection.open(server.port());
                HttpConnection second = HttpConnection.open(server.port())) {
            exchange(server, first);
            exchange(server, second);
            try (HttpConnection third = HttpConnection.open(server.port())) {
                assertTrue(third.closedByServerWithin(Duration.ofSeconds(2)), "the third is refused");
            }
            first.close();
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, Duration.ofSeconds(5)));
            try (HttpConnection again = HttpConnection.open(server.port())) {
                exchange(server, again);
                assertFalse(again.closedByServerWithin(Duration.ofMillis(200)), "a place was free again");
            }
        }
    }

    /**
     * A client that sends {@code Connection: close} and reads to the end, a fresh connection for every request: each
     * connection is closed right after its response, so 100 in a row fit a limit of 4 (a place is freed when the server
     * has closed its side, a moment after the client sees the FIN: the limit leaves room for that, not for the second
     * that connections used to linger).
     */
    @Test
    void aConnectionPerRequestIsClosedAfterItsResponse() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "4")) {
            String close = new String(
                            HttpConnection.post(server.token(), CALL), java.nio.charset.StandardCharsets.US_ASCII)
                    .replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n");
            for (int i = 0; i < 100; i++) {
                try (HttpConnection connection = HttpConnection.open(server.port())) {
                    connection.send(close.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    HttpConnection.Head head = connection.readHead();
                    assertEquals(200, head.status(), "request " + i);
                    connection.readBody(head);
                    assertTrue(connection.closedByServerWithin(Duration.ofMillis(500)), "request " + i);
                }
            }
        }
    }

    @Test
    void aResponseThatMakesNoProgressIsAbandoned() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        try (EngineServerFixture server =
                        EngineServerFixture.start(Fork.OSAKA, "--write-timeout", Long.toString(timeout.toSeconds()));
                HttpConnection stalled = HttpConnection.open(server.port())) {
            stalled.socket().setReceiveBufferSize(64 * 1024);
            stalled.send(HttpConnection.post(
                    server.token(), request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)))));
            long sent = System.nanoTime();
            assertEquals(
                    0, ServerSockets.awaitAtMost(server.port(), 0, Duration.ofSeconds(10)), "closed by the server");
            long millis = (System.nanoTime() - sent) / 1_000_000;
            Measurements.report("write timeout " + timeout.toMillis() + " ms: a stalled 35 MB response abandoned after "
                    + millis + " ms");
            assertTrue(millis >= timeout.toMillis(), millis + " ms");
            long read = stalled.discard(Long.MAX_VALUE);
            assertTrue(read < 34 + 128 * 275_096 + 127 + 2, "the response was cut off after " + read + " bytes");
        }
    }
}
