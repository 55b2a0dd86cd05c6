package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.RawH2cConnection;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import io.netty.util.NettyRuntime;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/2 streams whose reader goes away or stops, each asking for getBlobsV2 of 128 blobs (about 35 MB): a stream reset
 * by the client after its first DATA frames releases what it held (the server's direct memory back where it was, no
 * leak) while the other streams of its connection complete; readers that never send a WINDOW_UPDATE, or stop reading
 * their socket, pin bounded memory ({@link StalledReadersTest}'s bound of 1 MiB, the write water mark and a chunk, for
 * each stalled stream and each connection) while another connection is served, and a stalled reader that reads again
 * gets every reply whole.
 */
class Http2StalledStreamsTest {
    /** {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2). */
    private static final long BODY_LENGTH = 34 + 128 * 275_096L + 127 + 2;
    /** Streams on each stalled connection. */
    private static final int STREAMS = 4;

    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private static EngineServerFixture server;
    private static String json;
    private static PoolBodies.Expected expected;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA);
        List<VersionedHash> hashes = server.cycledHashes(128);
        json = request(1, "engine_getBlobsV2", hashParams(hashes));
        expected = PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
        assertEquals(BODY_LENGTH, expected.length());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aStreamResetMidBodyReleasesWhatItHeldAndTheOthersComplete() throws Exception {
        // The allocator's chunks for four streams at once, taken once on each I/O thread (Netty's default count, as
        // EngineServer's group has; connections are given to them in turn).
        for (int thread = 0; thread < 2 * NettyRuntime.availableProcessors(); thread++) {
            resetOneOfFour();
        }
        assertEquals(0, ServerSockets.awaitAtMost(server.port(), 0, CLOSE_TIMEOUT));
        long before = ServerMemory.direct();
        long received = resetOneOfFour();
        assertEquals(0, ServerSockets.awaitAtMost(server.port(), 0, CLOSE_TIMEOUT));
        assertTrue(received < BODY_LENGTH, "the reset stream got " + received + " bytes");
        assertTrue(
                Poll.within(() -> ServerMemory.direct() <= before, CLOSE_TIMEOUT),
                "direct memory " + ServerMemory.direct() + " bytes, " + before + " before");
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    /** Four streams on one connection, the second reset after its first DATA frames; returns what that one read. */
    private static long resetOneOfFour() throws Exception {
        try (H2cConnection connection = H2cConnection.open(server.port())) {
            List<H2cConnection.Exchange> streams = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                streams.add(connection.send(
                        H2cConnection.post("/", server.token(), "application/json", json.length()),
                        json.getBytes(StandardCharsets.UTF_8),
                        true,
                        i != 1));
            }
            H2cConnection.Exchange reset = streams.get(1);
            reset.resetAfter(1);
            reset.resumeReading();
            ExecutionException closed = assertThrows(ExecutionException.class, reset::response);
            assertTrue(closed.getCause().getMessage().contains("closed before its end"), closed.getMessage());
            for (int i : new int[] {0, 2, 3}) {
                H2cConnection.Response response = streams.get(i).response();
                assertEquals(200, response.status());
                assertEquals(expected.length(), response.length());
                assertArrayEquals(expected.sha256(), response.sha256(), "the pool's bytes");
            }
            assertFalse(connection.closed().isDone(), "the connection goes on");
            return reset.received();
        }
    }

    @Test
    void readersThatStopPinBoundedMemoryWhileAnotherConnectionIsServed() throws Exception {
        try (H2cConnection healthy = H2cConnection.open(server.port())) {
            for (int warm = 0; warm < 3; warm++) { // JIT, and the allocator's first chunks
                assertPoolBytes(healthy.postJson(server.token(), json).response());
            }
            long before = ServerMemory.direct();
            long peak;
            try (ServerMemory.Peak sampler = new ServerMemory.Peak();
                    RawH2cConnection noWindowUpdates = RawH2cConnection.open(server.port(), 0);
                    H2cConnection notReading =
                            H2cConnection.open(new InetSocketAddress("127.0.0.1", server.port()), 1 << 30, 1 << 30)) {
                byte[] body = json.getBytes(StandardCharsets.UTF_8);
                notReading.stopReading();
                List<H2cConnection.Exchange> resumed = new ArrayList<>();
                for (int i = 0; i < STREAMS; i++) {
                    noWindowUpdates.headers(
                            1 + 2 * i, H2cConnection.post("/", server.token(), "application/json", body.length), false);
                    noWindowUpdates.data(1 + 2 * i, body, true);
                    resumed.add(notReading.postJson(server.token(), json));
                }
                noWindowUpdates.flush();
                Poll.until(
                        () -> noWindowUpdates.dataBytes() == H2cConnection.DEFAULT_WINDOW,
                        CLOSE_TIMEOUT,
                        "the connection's window sent");
                for (int i = 0; i < 3; i++) {
                    assertPoolBytes(healthy.postJson(server.token(), json).response());
                }
                assertEquals(
                        H2cConnection.DEFAULT_WINDOW,
                        noWindowUpdates.dataBytes(),
                        "DATA bytes sent without a WINDOW_UPDATE: the connection's initial window");
                peak = sampler.bytes();
                notReading.resumeReading();
                for (H2cConnection.Exchange stream : resumed) {
                    assertPoolBytes(stream.response());
                }
            }
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, CLOSE_TIMEOUT));
            assertEquals(List.of(), LeakDetectionExtension.collectReports());
            Measurements.report(
                    "h2 stalled readers (%d streams without WINDOW_UPDATE, %d on a socket not read): direct memory"
                            + " %.1f MiB before, peak %.1f MiB%n",
                    STREAMS, STREAMS, before / 1048576.0, peak / 1048576.0);
            // StalledReadersTest's bound: 1 MiB for each stalled stream and each stalled connection.
            long bound = (2L * STREAMS + 2) << 20;
            assertTrue(peak - before < bound, "direct memory grew by " + (peak - before) + " bytes");
            assertPoolBytes(healthy.postJson(server.token(), json).response());
        }
    }

    private static void assertPoolBytes(H2cConnection.Response response) {
        assertEquals(200, response.status());
        assertEquals(expected.length(), response.length());
        assertArrayEquals(expected.sha256(), response.sha256(), "the pool's bytes");
    }
}
