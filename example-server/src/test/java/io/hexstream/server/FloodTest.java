package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client without the JWT cannot shut out the one with it. With {@code --max-connections 8}, four threads flood the
 * engine port for 10 s with requests refused on their head (a wrong token, a malformed head, a wrong token announcing a
 * body that never finishes), each on a fresh connection, as fast as they can, and a fifth holds two connections idle,
 * opening a new one whenever the server closes one; meanwhile the authenticated client asks every 50 ms on fresh
 * connections and on one keep-alive connection, and gets every reply, each the pool's blob and cell proofs. Its p99 is
 * printed beside the p99 of the same calls with no flood, measured first in the same run (no time is asserted: the
 * machine may be loaded).
 */
@Tag("full") // the flood: -Pfull
class FloodTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration INTERVAL = Duration.ofMillis(50);
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final Duration FLOOD = Duration.ofSeconds(10);
    private static final int FLOODERS = 4;
    private static final int HELD_IDLE = 2;
    private static final String WRONG_TOKEN = new JwtAuthenticator(new byte[32], Clock.systemUTC()).token();

    @Test
    void theAuthenticatedClientGetsEveryReplyWhileOthersFlood() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "8")) {
            VersionedHash hash = server.hashes().get(0);
            BlobEntry pooled = server.server().pool().get(hash);
            byte[] call =
                    HttpConnection.post(server.token(), request(1, "engine_getBlobsV2", hashParams(List.of(hash))));
            HttpConnection[] keptAlive = {null}; // one connection through both runs, opened by the first
            Client idleRun = Client.run(server.port(), call, pooled, IDLE, keptAlive);
            AtomicBoolean flooding = new AtomicBoolean(true);
            AtomicLong floodConnections = new AtomicLong();
            List<Thread> flood = new ArrayList<>();
            for (int i = 0; i < FLOODERS; i++) {
                flood.add(startThread(new Flooder(server.port(), i, flooding, floodConnections)));
            }
            flood.add(startThread(() -> holdIdle(server.port(), flooding, floodConnections)));
            Client underFlood;
            try {
                underFlood = Client.run(server.port(), call, pooled, FLOOD, keptAlive);
            } finally {
                close(keptAlive[0]);
                flooding.set(false);
                for (Thread each : flood) {
                    each.join();
                }
            }
            Measurements.report(
                    "flood of %d connections in %d s (%d threads refused on their head, 1 holding %d idle):"
                            + " authenticated client %d of %d replies, p99 %.1f ms (no flood: %d of %d, p99 %.1f ms)%n",
                    floodConnections.get(),
                    FLOOD.toSeconds(),
                    FLOODERS,
                    HELD_IDLE,
                    underFlood.correct(),
                    underFlood.asked(),
                    underFlood.latencies.percentile(99) / 1e6,
                    idleRun.correct(),
                    idleRun.asked(),
                    idleRun.latencies.percentile(99) / 1e6);
            assertEquals(List.of(), idleRun.failures);
            assertEquals(List.of(), underFlood.failures);
            assertEquals(underFlood.asked(), underFlood.correct());
            assertEquals(2 * (FLOOD.toMillis() / INTERVAL.toMillis()), underFlood.asked());
        }
    }

    /**
     * The authenticated client: one thread asking on a fresh connection each time, one on a single keep-alive
     * connection, each every {@link #INTERVAL} for {@code duration}; a reply counts when it is the pooled blob's.
     */
    private static final class Client {
        final Latencies latencies = new Latencies();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        private final AtomicLong asked = new AtomicLong();
        private final AtomicLong correct = new AtomicLong();

        long asked() {
            return asked.get();
        }

        long correct() {
            return correct.get();
        }

        static Client run(int port, byte[] call, BlobEntry pooled, Duration duration, HttpConnection[] keptAlive)
                throws InterruptedException {
            Client client = new Client();
            Latencies fresh = new Latencies();
            Latencies kept = new Latencies();
            Thread freshThread = startThread(() -> client.ask(port, call, pooled, duration, fresh, null));
            Thread keptThread = startThread(() -> client.ask(port, call, pooled, duration, kept, keptAlive));
            freshThread.join();
            keptThread.join();
            client.latencies.addAll(fresh);
            client.latencies.addAll(kept);
            return client;
        }

        /** Asks on fresh connections, or on {@code keptAlive[0]} (opened, or opened anew, as needed) if not null. */
        private void ask(
                int port, byte[] call, BlobEntry pooled, Duration duration, Latencies out, HttpConnection[] keptAlive) {
            long start = System.nanoTime();
            long count = duration.toNanos() / INTERVAL.toNanos();
            boolean keepAlive = keptAlive != null;
            HttpConnection kept = keepAlive ? keptAlive[0] : null;
            try {
                for (long i = 0; i < count; i++) {
                    long due = start + i * INTERVAL.toNanos();
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // a paced client: its next call
                    }
                    asked.incrementAndGet();
                    try {
                        if (kept == null) {
                            kept = HttpConnection.open(port);
                            kept.socket().setSoTimeout(10_000);
                        }
                        long sent = System.nanoTime();
                        kept.send(call);
                        HttpConnection.Head head = kept.readHead();
                        byte[] body = kept.readBody(head);
                        out.add(System.nanoTime() - sent);
                        assertEquals(200, head.status(), head.text());
                        JsonNode reply = MAPPER.readTree(body);
                        assertEquals(1, reply.get("id").asInt());
                        assertEquals(1, reply.get("result").size());
                        assertBlobAndProofV2(pooled, reply.get("result").get(0));
                        correct.incrementAndGet();
                    } catch (IOException | AssertionError e) {
                        failures.add((keepAlive ? "keep-alive" : "fresh") + " request " + i + ": " + e);
                        close(kept);
                        kept = null;
                    }
                    if (!keepAlive) {
                        close(kept);
                        kept = null;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (keepAlive) {
                keptAlive[0] = kept;
            } else {
                close(kept);
            }
        }
    }

    /** Fresh connections as fast as it can, each with a request refused on its head. */
    private record Flooder(int port, int index, AtomicBoolean flooding, AtomicLong connections) implements Runnable {
        @Override
        public void run() {
            byte[][] requests = {
                HttpConnection.post(WRONG_TOKEN, request(1, "engine_exchangeCapabilities", "[[]]")),
                HttpConnection.post("not.a.jwt", request(1, "engine_getBlobsV2", "[[]]")),
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".getBytes(US_ASCII),
                "\0\1 GARBAGE\r\n\r\n".getBytes(US_ASCII),
                ("POST / HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + WRONG_TOKEN
                                + "\r\nContent-Length: 1000000\r\n\r\n" + "0".repeat(60_000))
                        .getBytes(US_ASCII),
            };
            for (long n = index; flooding.get(); n++) {
                try (HttpConnection connection = HttpConnection.open(port)) {
                    connections.incrementAndGet();
                    connection.socket().setSoTimeout(2_000);
                    connection.send(requests[(int) (n % requests.length)]);
                    if (n % 2 == 0) {
                        connection.discard(Long.MAX_VALUE); // reads its refusal to the end; else goes at once
                    }
                } catch (IOException refusedOrReset) {
                    // refused at accept, displaced, or reset: the flood goes on
                }
            }
        }
    }

    /**
     * Holds {@link #HELD_IDLE} connections open, sending nothing, and opens a new one within 20 ms of the server
     * closing one.
     */
    private static void holdIdle(int port, AtomicBoolean flooding, AtomicLong connections) {
        List<Socket> held = new ArrayList<>();
        try {
            while (flooding.get()) {
                held.removeIf(FloodTest::closedByServer);
                while (held.size() < HELD_IDLE) {
                    try {
                        held.add(new Socket("127.0.0.1", port));
                        connections.incrementAndGet();
                    } catch (IOException refused) {
                        break; // the flood goes on
                    }
                }
                Thread.sleep(20); // idle peers: they send nothing, and look again in 20 ms
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            held.forEach(FloodTest::closeQuietly);
        }
    }

    /** Whether the server has closed {@code socket} (which then is closed here too). */
    private static boolean closedByServer(Socket socket) {
        try {
            socket.setSoTimeout(1);
            if (socket.getInputStream().read() >= 0) {
                throw new IllegalStateException("the server sent something unasked");
            }
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            // closed too
        }
        closeQuietly(socket);
        return true;
    }

    private static Thread startThread(Runnable task) {
        Thread thread = new Thread(task);
        thread.start();
        return thread;
    }

    private static void close(HttpConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
