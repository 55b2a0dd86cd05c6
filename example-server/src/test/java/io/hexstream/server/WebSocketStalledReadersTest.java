package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.WebSocketConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link StalledReadersTest}'s bound over WebSocket: thirty-two clients ask for 128 blobs each (about 35 MB apiece)
 * over a WebSocket and stop reading. What the server holds for them stays under HTTP's bounds (its direct memory under
 * 32 MiB in all, its heap grown by less than 4 MiB): each reply is produced frame by frame as the socket drains. A
 * healthy client is served meanwhile, a stalled one that resumes gets its reply whole, and once the others hang up
 * every connection is closed and no buffer is left unreleased.
 */
@Tag("own-jvm") // bounds the direct memory of the whole JVM
@Tag("full") // the reliability suite: -Pfull
class WebSocketStalledReadersTest {
    private static final int STALLED = 32;
    /** {@link StalledReadersTest}'s bounds. */
    private static final long DIRECT_LIMIT = 32L << 20;

    private static final long HEAP_GROWTH_STALLED = 4L << 20;
    private static final Duration STALL = Duration.ofSeconds(3);

    @Test
    void stalledReadersPinBoundedMemory() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA);
                WebSocketConnection healthy = WebSocketConnection.open(server.port(), server.token())) {
            String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
            byte[] reference = HttpConnection.sha256().digest(server.post(json).body());
            for (int warm = 0; warm < 10; warm++) { // JIT, and the pools' first chunks
                healthy.sendText(json);
                assertArrayEquals(reference, healthy.readMessage().sha256());
            }
            long heapBefore = ServerMemory.heapAfterGc();
            long directBefore = ServerMemory.direct();
            long heapDuring;
            long directPeak;
            List<WebSocketConnection> stalled = new ArrayList<>();
            try (ServerMemory.Peak peak = new ServerMemory.Peak()) {
                try {
                    for (int i = 0; i < STALLED; i++) {
                        WebSocketConnection connection = WebSocketConnection.open(server.port(), server.token());
                        stalled.add(connection);
                        connection.sendText(json);
                    }
                    long stallEnds = System.nanoTime() + STALL.toNanos();
                    while (System.nanoTime() < stallEnds) {
                        healthy.sendText(json);
                        assertArrayEquals(reference, healthy.readMessage().sha256());
                    }
                    heapDuring = ServerMemory.heapAfterGc();
                    WebSocketConnection resumed = stalled.remove(0);
                    assertArrayEquals(reference, resumed.readMessage().sha256(), "a stalled reader that resumes");
                    resumed.close();
                } finally {
                    for (WebSocketConnection connection : stalled) {
                        connection.close();
                    }
                }
                directPeak = peak.bytes();
            }
            int open = ServerSockets.awaitAtMost(server.port(), 2, Duration.ofSeconds(10));
            List<String> leaks = LeakDetectionExtension.collectReports();
            Measurements.report(
                    "WebSocket stalled readers (%d for %d s): direct memory %.1f MiB before, peak %.1f MiB; heap"
                            + " after GC %.1f / %.1f MiB before / during; %d connections left; %d leak reports%n",
                    STALLED,
                    STALL.toSeconds(),
                    directBefore / 1048576.0,
                    directPeak / 1048576.0,
                    heapBefore / 1048576.0,
                    heapDuring / 1048576.0,
                    open,
                    leaks.size());
            assertTrue(open <= 2, open + " connections open: the healthy one and the HTTP client's pooled one");
            assertEquals(List.of(), leaks);
            assertTrue(directPeak < DIRECT_LIMIT, "direct memory peaked at " + directPeak + " bytes");
            assertTrue(
                    heapDuring - heapBefore < HEAP_GROWTH_STALLED,
                    "heap grew by " + (heapDuring - heapBefore) + " bytes");
        }
    }
}
