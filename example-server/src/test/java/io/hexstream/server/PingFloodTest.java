package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.WebSocketConnection;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A client holding the JWT pings as fast as it can over a WebSocket and never reads a pong: the server answers a ping
 * only while the socket takes it and stops reading meanwhile, so what it holds for that client stays bounded (its
 * direct memory under 32 MiB in all, its heap grown by less than 64 MiB) while another authenticated client's
 * getBlobsV2 of 128 blobs is answered throughout, byte for byte the pool's; and since no byte leaves for the flooder,
 * the stalled-write timeout ends its connection. The 60 s run is in {@code -Pfull}.
 */
@Tag("own-jvm") // bounds the direct memory of the whole JVM
class PingFloodTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** {@link WebSocketStalledReadersTest}'s bound. */
    private static final long DIRECT_LIMIT = 32L << 20;
    /**
     * The bound on the server's growth (64 MiB), taken for the heap of this JVM, which the other test classes
     * share: an unbounded flood grows it by gigabytes within seconds.
     */
    private static final long HEAP_GROWTH = 64L << 20;

    @Test
    void aPingFloodWhosePongsAreNeverReadHoldsBoundedMemoryAndIsCutOff() throws Exception {
        flood(Duration.ofSeconds(4), Duration.ofSeconds(2));
    }

    @Test
    @Tag("full")
    void aMinuteOfPingFlood() throws Exception {
        flood(Duration.ofSeconds(60), Duration.ofSeconds(60));
    }

    /** Floods for {@code duration} with {@code --write-timeout} at {@code writeTimeout}, a canary served meanwhile. */
    private static void flood(Duration duration, Duration writeTimeout) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(
                        Fork.OSAKA, "--write-timeout", Long.toString(writeTimeout.toSeconds()));
                WebSocketConnection canary = WebSocketConnection.open(server.port(), server.token())) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            String json = request(1, "engine_getBlobsV2", hashParams(hashes));
            byte[] overHttp = server.post(json).body();
            JsonNode result = MAPPER.readTree(overHttp).get("result");
            for (int i = 0; i < hashes.size(); i++) {
                assertBlobAndProofV2(server.server().pool().get(hashes.get(i)), result.get(i));
            }
            byte[] reference = HttpConnection.sha256().digest(overHttp);
            for (int warm = 0; warm < 5; warm++) { // JIT, and the pools' first chunks
                canary.sendText(json);
                assertArrayEquals(reference, canary.readMessage().sha256());
            }
            long heapBefore = ServerMemory.heapAfterGc();
            long directPeak;
            long heapDuring = -1;
            AtomicLong pings = new AtomicLong();
            WebSocketConnection flooder = WebSocketConnection.open(server.port(), server.token());
            CompletableFuture<IOException> cutOff = CompletableFuture.supplyAsync(() -> {
                byte[] payload = new byte[125];
                Arrays.fill(payload, (byte) 'p');
                try {
                    while (true) {
                        flooder.sendFrame(true, WebSocketConnection.PING, payload);
                        pings.incrementAndGet();
                    }
                } catch (IOException e) {
                    return e; // the server closed the connection, or the test did
                }
            });
            int answers = 0;
            try (ServerMemory.Peak peak = new ServerMemory.Peak()) {
                try {
                    // The canary asks throughout: for the flood's duration, then until the stalled-write timeout has
                    // cut the flooder off (an idle canary would meet the idle timeout meanwhile).
                    long ends = System.nanoTime() + duration.toNanos();
                    long cutOffBy = ends + TimeUnit.SECONDS.toNanos(writeTimeout.toSeconds() * 3 + 30);
                    while (heapDuring < 0 || !cutOff.isDone() && System.nanoTime() < cutOffBy) {
                        if (heapDuring < 0 && System.nanoTime() >= ends) {
                            heapDuring = ServerMemory.heapAfterGc(); // the flooder still connected
                        }
                        canary.sendText(json);
                        assertArrayEquals(reference, canary.readMessage().sha256(), "the canary's reply");
                        answers++;
                    }
                    assertTrue(cutOff.isDone(), "the flooder is cut off by the stalled-write timeout");
                } finally {
                    flooder.close();
                }
                directPeak = peak.bytes();
            }
            Measurements.report(
                    "ping flood for %d s: %,d pings sent, %d canary replies; direct memory peak %.1f MiB, heap after"
                            + " GC %.1f / %.1f MiB before / during",
                    duration.toSeconds(),
                    pings.get(),
                    answers,
                    directPeak / 1048576.0,
                    heapBefore / 1048576.0,
                    heapDuring / 1048576.0);
            assertTrue(answers > 0, "the canary was answered during the flood");
            assertTrue(directPeak < DIRECT_LIMIT, "direct memory peaked at " + directPeak + " bytes");
            assertTrue(heapDuring - heapBefore < HEAP_GROWTH, "heap grew by " + (heapDuring - heapBefore) + " bytes");
            canary.sendText(json);
            assertArrayEquals(reference, canary.readMessage().sha256(), "the canary after the flood");
            assertEquals(List.of(), LeakDetectionExtension.collectReports());
        }
    }
}
