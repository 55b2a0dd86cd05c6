package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.ReliabilitySizes;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Thirty-two clients ask for 128 blobs each (about 35 MB apiece) and stop reading. The server goes on serving: what it
 * holds for them stays bounded by the write water marks (its direct memory under 32 MiB in all, its heap flat), a
 * healthy client's 128-blob request meanwhile takes at most twice as long as on an idle server, a stalled client that
 * resumes reading gets its whole response, and once the others hang up every connection is closed and no buffer is left
 * unreleased.
 */
@Tag("own-jvm") // bounds the direct memory of the whole JVM
@Tag("full") // the reliability suite: -Pfull
class StalledReadersTest {
    private static final int STALLED = 32;
    private static final long DIRECT_LIMIT = 32L << 20;
    /**
     * Heap the stalled responses may hold while pending (each is described, not rendered: about 80 KiB with paranoid
     * leak records); one blob's hex per connection would be 8 MiB.
     */
    private static final long HEAP_GROWTH_STALLED = 4L << 20;
    /**
     * Heap left over once they are gone: less than the 32 responses' descriptions (about 2.5 MiB), so that keeping them
     * would fail; 0.2 to 0.6 MiB measured on JDK 17 and 25 (the test's own samples, JIT and leak-detector records).
     */
    private static final long HEAP_GROWTH_AFTER = 2L << 20;

    private static final int IDLE_SAMPLES = 15;
    private static final int MIN_LOADED_SAMPLES = 7;
    /** {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2). */
    private static final long BODY_LENGTH = 34 + 128 * 275_096L + 127 + 2;

    @Test
    void stalledReadersPinBoundedMemoryAndDoNotSlowAHealthyClient() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA);
                HttpConnection healthy = HttpConnection.open(server.port())) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            String json = request(1, "engine_getBlobsV2", hashParams(hashes));
            PoolBodies.Expected expected =
                    PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
            assertEquals(BODY_LENGTH, expected.length());
            HttpConnection.Digested first = fetch(healthy, server, json);
            assertEquals(200, first.head().status());
            assertEquals(BODY_LENGTH, first.length());
            assertArrayEquals(expected.sha256(), first.sha256(), "the pool's bytes");
            for (int warm = 0; warm < 20; warm++) { // JIT
                fetch(healthy, server, json);
            }
            for (int warm = 0; warm < 8; warm++) { // a connection on each I/O thread, whose first use costs heap once
                try (HttpConnection connection = HttpConnection.open(server.port())) {
                    fetch(connection, server, json);
                }
            }
            // their server sides closed, so that the sockets counted below are the stalled readers' and the healthy one
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, Duration.ofSeconds(10)));
            // Once with the stalled readers, briefly, so that what the server sizes once for that many
            // connections at a time (per-thread caches, selector key sets, recycled objects) is in the
            // heap measured before, not counted as growth after.
            List<HttpConnection> warmStalled = new ArrayList<>();
            try {
                byte[] stalledRequest = HttpConnection.post(server.token(), json);
                for (int i = 0; i < STALLED; i++) {
                    HttpConnection connection = HttpConnection.open(server.port());
                    warmStalled.add(connection);
                    connection.send(stalledRequest);
                }
                assertEquals(STALLED + 1, ServerSockets.awaitAtMost(server.port(), STALLED + 1, Duration.ZERO));
                fetch(healthy, server, json);
            } finally {
                for (HttpConnection connection : warmStalled) {
                    connection.close();
                }
            }
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, Duration.ofSeconds(10)));
            Latencies idleBefore = new Latencies();
            for (int i = 0; i < IDLE_SAMPLES; i++) {
                idleBefore.add(timed(healthy, server, json, expected));
            }
            long heapBefore = ServerMemory.heapAfterGc();
            long directBefore = ServerMemory.direct();

            Latencies loaded = new Latencies();
            long heapDuring;
            long directPeak;
            List<HttpConnection> stalled = new ArrayList<>();
            try (ServerMemory.Peak peak = new ServerMemory.Peak()) {
                try {
                    byte[] stalledRequest = HttpConnection.post(server.token(), json);
                    for (int i = 0; i < STALLED; i++) {
                        HttpConnection connection = HttpConnection.open(server.port());
                        stalled.add(connection);
                        connection.send(stalledRequest);
                    }
                    assertEquals(STALLED + 1, ServerSockets.awaitAtMost(server.port(), STALLED + 1, Duration.ZERO));
                    long stallEnds =
                            System.nanoTime() + ReliabilitySizes.stall().toNanos();
                    while (System.nanoTime() < stallEnds || loaded.count() < MIN_LOADED_SAMPLES) {
                        loaded.add(timed(healthy, server, json, expected));
                    }
                    heapDuring = ServerMemory.heapAfterGc();
                    HttpConnection resumed = stalled.remove(0);
                    HttpConnection.Digested late = resumed.readDigested();
                    assertEquals(BODY_LENGTH, late.length());
                    assertArrayEquals(
                            expected.sha256(), late.sha256(), "a stalled reader that resumes gets its whole response");
                    resumed.close();
                } finally {
                    for (HttpConnection connection : stalled) {
                        connection.close();
                    }
                    stalled.clear();
                }
                directPeak = peak.bytes();
            }
            assertEquals(
                    1,
                    ServerSockets.awaitAtMost(server.port(), 1, Duration.ofSeconds(10)),
                    "the server closes every connection its stalled clients hung up");
            long heapAfter = ServerMemory.heapAfterGc();
            List<String> leaks = LeakDetectionExtension.collectReports();
            Latencies idleAfter = new Latencies();
            for (int i = 0; i < IDLE_SAMPLES; i++) {
                idleAfter.add(timed(healthy, server, json, expected));
            }
            // The idle time is the better of before (the JIT may still be at work) and after.
            long idle = Math.min(idleBefore.median(), idleAfter.median());

            Measurements.report(
                    "stalled readers (%s, %d stalled for %d s): direct memory %.1f MiB before, peak %.1f MiB;"
                            + " heap after GC %.1f / %.1f / %.1f MiB before / during / after; healthy 128-blob request"
                            + " median"
                            + " %.1f ms idle (%.1f ms before, %.1f ms after), %.1f ms with the stalled readers (%d"
                            + " samples);"
                            + " %d leak reports%n",
                    ReliabilitySizes.label(),
                    STALLED,
                    ReliabilitySizes.stall().toSeconds(),
                    mib(directBefore),
                    mib(directPeak),
                    mib(heapBefore),
                    mib(heapDuring),
                    mib(heapAfter),
                    idle / 1e6,
                    idleBefore.median() / 1e6,
                    idleAfter.median() / 1e6,
                    loaded.median() / 1e6,
                    loaded.count(),
                    leaks.size());
            assertEquals(List.of(), leaks);
            assertTrue(directPeak < DIRECT_LIMIT, "direct memory peaked at " + directPeak + " bytes");
            assertTrue(
                    heapDuring - heapBefore < HEAP_GROWTH_STALLED,
                    "heap grew by " + (heapDuring - heapBefore) + " bytes");
            assertTrue(
                    heapAfter - heapBefore < HEAP_GROWTH_AFTER, "heap grew by " + (heapAfter - heapBefore) + " bytes");
            assertTrue(
                    loaded.median() <= 2 * idle,
                    "healthy request median " + loaded.median() + " ns loaded, " + idle + " ns idle");
        }
    }

    /** One request on {@code connection} with a fresh token, read whole. */
    private static HttpConnection.Digested fetch(HttpConnection connection, EngineServerFixture server, String json)
            throws Exception {
        connection.send(HttpConnection.post(server.token(), json));
        return connection.readDigested();
    }

    /** Nanoseconds from sending the request to the last byte of a response of exactly the {@code expected} bytes. */
    private static long timed(
            HttpConnection connection, EngineServerFixture server, String json, PoolBodies.Expected expected)
            throws Exception {
        byte[] request = HttpConnection.post(server.token(), json);
        long started = System.nanoTime();
        connection.send(request);
        HttpConnection.Digested response = connection.readDigested();
        long took = System.nanoTime() - started;
        assertEquals(expected.length(), response.length());
        assertArrayEquals(expected.sha256(), response.sha256());
        return took;
    }

    private static double mib(long bytes) {
        return bytes / 1048576.0;
    }
}
