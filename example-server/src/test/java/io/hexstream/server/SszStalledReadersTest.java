package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.SszBlobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Readers of 128-blob {@code POST /engine/v1/blobs/v2} answers (17.5 MB each) that stop reading pin what stalled JSON
 * readers do (the chunks in the outbound buffer, under 1 MiB each), not their answers: 16 of them keep the server's
 * direct memory within 16 MiB of where it was; one that resumes gets its whole answer, and once the others hang up
 * every connection is closed and nothing leaked.
 */
class SszStalledReadersTest {
    private static final int STALLED = 16;
    private static final long BODY_LENGTH = 4 + 128 * (4 + 137_225L);

    @Test
    void stalledSszReadersPinBoundedDirectMemory() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            byte[] body = SszBlobs.request(hashes);
            PoolBodies.Expected expected =
                    PoolBodies.sszBlobsV2(PoolBodies.entries(server.server().pool(), hashes));
            assertEquals(BODY_LENGTH, expected.length());
            try (HttpConnection connection = HttpConnection.open(server.port())) {
                connection.send(SszBlobs.rawPost(server.token(), "/engine/v1/blobs/v2", body));
                HttpConnection.Digested first = connection.readDigested();
                assertEquals(BODY_LENGTH, first.length());
                assertArrayEquals(expected.sha256(), first.sha256(), "the pool's bytes");
            }
            long directBefore = ServerMemory.direct();
            long peak;
            List<HttpConnection> stalled = new ArrayList<>();
            try (ServerMemory.Peak sampler = new ServerMemory.Peak()) {
                try {
                    byte[] request = SszBlobs.rawPost(server.token(), "/engine/v1/blobs/v2", body);
                    for (int i = 0; i < STALLED; i++) {
                        HttpConnection connection = HttpConnection.open(server.port());
                        stalled.add(connection);
                        connection.send(request);
                    }
                    Thread.sleep(
                            2_000); // slow peers, stalled for 2 s: every socket buffer fills, every outbound buffer
                    // reaches its high water mark
                    peak = sampler.bytes();
                    HttpConnection resumed = stalled.remove(0);
                    HttpConnection.Digested late = resumed.readDigested();
                    assertEquals(BODY_LENGTH, late.length());
                    assertArrayEquals(
                            expected.sha256(), late.sha256(), "a stalled reader that resumes gets its whole answer");
                    resumed.close();
                } finally {
                    for (HttpConnection connection : stalled) {
                        connection.abort();
                    }
                }
            }
            assertEquals(0, ServerSockets.awaitAtMost(server.port(), 0, Duration.ofSeconds(10)));
            assertEquals(List.of(), LeakDetectionExtension.collectReports());
            Measurements.report(
                    "%d stalled SSZ readers: direct memory %.1f MiB before, peak %.1f MiB%n",
                    STALLED, directBefore / 1048576.0, peak / 1048576.0);
            assertTrue(
                    peak - directBefore < STALLED << 20, "direct memory grew by " + (peak - directBefore) + " bytes");
        }
    }
}
