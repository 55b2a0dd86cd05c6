package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Limits under attack: ten thousand pipelined requests on one connection are answered in order, and the idle timeout
 * cuts off a client that sends its request a byte a second (slowloris) or leaves a keep-alive connection unused, but
 * never a slow or stalled reader of a big response. (A 1 GiB {@code Content-Length} gets 413 before its body is read:
 * {@code ErrorsTest}.)
 */
class LimitsTest {
    private static final int PIPELINED = 10_000;
    private static final Duration SHORT_TIMEOUT = Duration.ofSeconds(2);
    /** How late after the timeout a close may be seen: the timer's slack plus the test's own polling. */
    private static final Duration SLACK = Duration.ofMillis(1500);

    private static final String CAPABILITIES = "[\"engine_getBlobsV2\",\"engine_getBlobsV3\",\"engine_getBlobsV4\"]";

    @Test
    void tenThousandPipelinedRequestsAreAnsweredInOrder() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA);
                HttpConnection connection = HttpConnection.open(server.port())) {
            String token = server.token();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int id = 0; id < PIPELINED; id++) {
                all.writeBytes(HttpConnection.post(token, request(id, "engine_exchangeCapabilities", "[[]]")));
            }
            byte[] requests = all.toByteArray();
            CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
                try {
                    connection.send(requests); // one write: the server answers while it is still arriving
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (int id = 0; id < PIPELINED; id++) {
                HttpConnection.Head head = connection.readHead();
                assertEquals(200, head.status());
                assertEquals(
                        "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + CAPABILITIES + "}",
                        new String(connection.readBody(head), US_ASCII));
            }
            written.get(10, TimeUnit.SECONDS);
            assertFalse(connection.closedByServerWithin(Duration.ofMillis(200)), "and the connection stays open");
        }
    }

    @Test
    void aSlowlorisIsCutOffByTheIdleTimeout() throws Exception {
        byte[] request = HttpConnection.post(null, request(1, "engine_exchangeCapabilities", "[[]]"));
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, SHORT_TIMEOUT);
                HttpConnection slowloris = HttpConnection.open(server.port())) {
            long connected = System.nanoTime();
            // A byte at 0.5 s, 1.5 s, 2.5 s, … after connecting: the cut at 2 s falls between two bytes.
            boolean closed = slowloris.closedByServerWithin(Duration.ofMillis(500));
            int sent = 0;
            while (!closed && sent < 2 * SHORT_TIMEOUT.toSeconds() + 2) {
                slowloris.send(new byte[] {request[sent++]});
                closed = slowloris.closedByServerWithin(Duration.ofSeconds(1));
            }
            Duration after = Duration.ofNanos(System.nanoTime() - connected);
            assertTrue(closed, "still open after " + sent + " bytes");
            assertEquals(2, sent, "bytes trickled in before the cut, which did not reset the clock");
            assertAtLeast(SHORT_TIMEOUT, after);
        }
    }

    @Test
    void aSlowOrStalledReaderOfABigResponseIsNotCutOffButAnIdleConnectionIs() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, SHORT_TIMEOUT)) {
            String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
            byte[] expected = HttpConnection.sha256().digest(server.post(json).body());
            // opened once the expected body is known, which may take longer than the idle timeout
            try (HttpConnection reader = HttpConnection.open(server.port())) {
                reader.send(HttpConnection.post(server.token(), json));
                Thread.sleep(
                        SHORT_TIMEOUT.multipliedBy(2).toMillis()); // a slow peer: reads nothing for twice the timeout
                HttpConnection.Head head = reader.readHead();
                long left = head.contentLength();
                java.security.MessageDigest sha256 = HttpConnection.sha256();
                long slowStarted = System.nanoTime();
                while (left > 0) { // then slow: a sixteenth of the body every 250 ms, 4 s in all
                    byte[] piece = reader.readExactly(Math.min(left, head.contentLength() / 16 + 1));
                    sha256.update(piece);
                    left -= piece.length;
                    Thread.sleep(250); // a slow peer: a piece every 250 ms
                }
                assertTrue(System.nanoTime() - slowStarted > SHORT_TIMEOUT.toNanos());
                assertArrayEquals(
                        expected, sha256.digest(), "the whole response, though it took three times the timeout");

                // The server finished writing when the last bytes went into the socket's buffers, well before
                // they were read; a small exchange marks when it is idle.
                reader.send(HttpConnection.post(server.token(), request(2, "engine_exchangeCapabilities", "[[]]")));
                reader.readBody(reader.readHead());
                long idleFrom = System.nanoTime();
                assertTrue(
                        reader.closedByServerWithin(SHORT_TIMEOUT.plus(SLACK)),
                        "an unused keep-alive connection is closed");
                assertAtLeast(
                        SHORT_TIMEOUT.minus(Duration.ofMillis(50)), Duration.ofNanos(System.nanoTime() - idleFrom));
            }
        }
    }

    @Test
    void aConnectionUsedWithinTheTimeoutStaysOpen() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, SHORT_TIMEOUT);
                HttpConnection connection = HttpConnection.open(server.port())) {
            for (int i = 0; i < 4; i++) { // 4 requests 1 s apart: twice the timeout in all
                connection.send(HttpConnection.post(server.token(), request(i, "engine_exchangeCapabilities", "[[]]")));
                HttpConnection.Head head = connection.readHead();
                assertEquals(
                        "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"result\":" + CAPABILITIES + "}",
                        new String(connection.readBody(head), US_ASCII));
                assertFalse(connection.closedByServerWithin(SHORT_TIMEOUT.dividedBy(2)));
            }
        }
    }

    @Test
    void theIdleTimeoutIsThirtySecondsByDefaultAndConfigurable() {
        assertEquals(Duration.ofSeconds(30), ServerOptions.parse().idleTimeout);
        assertEquals(Duration.ofSeconds(5), ServerOptions.parse("--idle-timeout", "5").idleTimeout);
    }

    /** The timeout did not fire early (how late it fires is the machine's load, not asserted). */
    private static void assertAtLeast(Duration low, Duration actual) {
        assertTrue(actual.compareTo(low) >= 0, actual.toMillis() + " ms, expected at least " + low.toMillis() + " ms");
    }
}
