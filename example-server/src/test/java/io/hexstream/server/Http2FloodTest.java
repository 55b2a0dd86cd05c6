package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.Http2Streams;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.RawH2cConnection;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.NettyRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Floods of HTTP/2 frames (CVE-2023-44487 "rapid reset", CVE-2024-27316 CONTINUATION, CVE-2019-9512 PING) on one
 * connection while an authenticated client's getBlobsV2 of 128 blobs is served on another, byte for byte the pool's:
 * the resets are cut off with GOAWAY {@code ENHANCE_YOUR_CALM} past {@link Http2Streams#MAX_RST_FRAMES}; a header block
 * that grows past the header list bound closes the connection, the server's direct memory back where it was; PINGs
 * whose acknowledgements are never read stop being read once the socket is full, the server's memory bounded.
 */
class Http2FloodTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /**
     * What a PING flood may add to the server's direct memory, in bytes: a reply in flight on the good connection and
     * the allocator's slack, where the flood's unread acknowledgements, were they queued, would be gigabytes.
     */
    private static final long FLOOD_GROWTH_LIMIT = 8L << 20;

    private static EngineServerFixture server;
    private static String json;
    private static PoolBodies.Expected expected;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA);
        List<VersionedHash> hashes = server.cycledHashes(128);
        json = request(1, "engine_getBlobsV2", hashParams(hashes));
        expected = PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void rapidResetIsCutOffWithEnhanceYourCalmPastItsBound() throws Exception {
        try (H2cConnection good = H2cConnection.open(server.port());
                RawH2cConnection flooder = RawH2cConnection.open(server.port(), 0)) {
            H2cConnection.Exchange during = good.postJson(server.token(), json);
            settled(flooder, 1);
            Http2Headers headers = H2cConnection.post("/", server.token(), "application/json", json.length());
            int stream = 1;
            for (int i = 0; i < Http2Streams.MAX_RST_FRAMES; i++, stream += 2) {
                flooder.headers(stream, headers, false);
                flooder.reset(stream, Http2Error.CANCEL);
            }
            settled(flooder, 2);
            assertFalse(flooder.goAway().isDone(), "GOAWAY after " + Http2Streams.MAX_RST_FRAMES + " resets");
            flooder.headers(stream, headers, false);
            flooder.reset(stream, Http2Error.CANCEL);
            flooder.flush();
            H2cConnection.GoAway goAway = flooder.goAway().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(Http2Error.ENHANCE_YOUR_CALM.code(), goAway.errorCode());
            assertTrue(flooder.closed().await(TIMEOUT.toMillis()), "the flooder's connection is closed");
            assertPoolBytes(during.response());
            assertPoolBytes(good.postJson(server.token(), json).response());
        }
    }

    /** A PING, and its acknowledgement: every frame written before it has been read. */
    private static void settled(RawH2cConnection connection, long ping) throws Exception {
        connection.ping(ping);
        connection.flush();
        connection.pingAck(ping).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void aContinuationFloodIsClosedPastTheHeaderListBoundAndHoldsNothing() throws Exception {
        try (H2cConnection good = H2cConnection.open(server.port())) {
            warmEveryIoThread();
            for (int thread = 0; thread < 2 * NettyRuntime.availableProcessors(); thread++) {
                endlessContinuations(); // the allocator's chunks for what a flood is read into, on each I/O thread
            }
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, TIMEOUT));
            long before = ServerMemory.direct();
            H2cConnection.Exchange during = good.postJson(server.token(), json);
            long frames = endlessContinuations();
            assertEquals(Http2Error.PROTOCOL_ERROR.code(), justPastTheBound().errorCode());
            assertPoolBytes(during.response());
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, TIMEOUT));
            Measurements.report(
                    "h2 CONTINUATION flood: %d frames of 1 KiB written; direct memory %d bytes before, %d after%n",
                    frames, before, ServerMemory.direct());
            assertTrue(
                    Poll.within(() -> ServerMemory.direct() <= before, TIMEOUT),
                    "direct memory " + ServerMemory.direct() + " bytes, " + before + " before");
            assertPoolBytes(good.postJson(server.token(), json).response());
            assertEquals(List.of(), LeakDetectionExtension.collectReports());
        }
    }

    /** HEADERS without END_HEADERS, then CONTINUATION frames until the server closes; returns how many were written. */
    private static long endlessContinuations() throws Exception {
        try (RawH2cConnection flooder = RawH2cConnection.open(server.port(), 0)) {
            settled(flooder, 1);
            flooder.headersWithoutEnd(1, H2cConnection.post("/", server.token(), "application/json", 100));
            long frames = flooder.flood(c -> c.continuation(1, 1024), 1_000_000, false);
            assertTrue(flooder.closed().await(TIMEOUT.toMillis()), "the flooder's connection is closed");
            assertTrue(frames < 1_000_000, frames + " CONTINUATION frames written before the close");
            return frames;
        }
    }

    /**
     * A header block of one HEADERS frame and CONTINUATION frames just past the bound Netty holds a block to,
     * {@code MAX_HEADER_LIST_SIZE} and a quarter (10,240 bytes), then nothing: the GOAWAY that answers, read whole (in
     * the endless flood the server's close may find bytes unread, and reset the connection before its GOAWAY is read).
     */
    private static H2cConnection.GoAway justPastTheBound() throws Exception {
        try (RawH2cConnection connection = RawH2cConnection.open(server.port(), 0)) {
            settled(connection, 1);
            connection.headersWithoutEnd(1, H2cConnection.post("/", server.token(), "application/json", 100));
            for (int i = 0; i < 10; i++) {
                connection.continuation(1, 1024);
            }
            connection.flush();
            assertTrue(connection.closed().await(TIMEOUT.toMillis()), "the connection is closed");
            assertTrue(connection.goAway().isDone(), "a GOAWAY before the close");
            return connection.goAway().join();
        }
    }

    /**
     * A getBlobsV2 on a fresh connection for each I/O thread of the server (Netty's default count, as EngineServer's;
     * connections are given to them in turn): the allocator's chunks of each, taken before memory is compared.
     */
    private static void warmEveryIoThread() throws Exception {
        for (int thread = 0; thread < 2 * NettyRuntime.availableProcessors(); thread++) {
            try (H2cConnection connection = H2cConnection.open(server.port())) {
                assertPoolBytes(connection.postJson(server.token(), json).response());
            }
        }
    }

    @Test
    void aPingFloodWhoseAcknowledgementsAreNeverReadStopsBeingRead() throws Exception {
        try (H2cConnection good = H2cConnection.open(server.port())) {
            warmEveryIoThread();
            long before = ServerMemory.direct();
            long peak;
            long pings;
            try (ServerMemory.Peak sampler = new ServerMemory.Peak();
                    RawH2cConnection flooder = RawH2cConnection.open(server.port(), 16 * 1024)) {
                settled(flooder, 1);
                flooder.stopReading();
                pings = flooder.flood(c -> c.ping(2), 100_000_000, true);
                assertFalse(flooder.closed().isDone(), "the flooder's connection is paused, not closed");
                assertFalse(flooder.isWritable(), "the server no longer reads the flood");
                for (int i = 0; i < 3; i++) {
                    assertPoolBytes(good.postJson(server.token(), json).response());
                }
                assertTrue(pings < 100_000_000, pings + " PINGs written");
                assertFalse(flooder.isWritable(), "the server still does not read the flood");
                peak = sampler.bytes();
            }
            Measurements.report(
                    "h2 PING flood: %d PINGs written; direct memory %d bytes before, peak %d%n", pings, before, peak);
            // What the flood makes the server hold, whatever earlier tests in this JVM left in the allocator: the good
            // connection's replies in flight (a high water mark and a chunk) and the allocator's slack, not the acks.
            assertTrue(peak - before < FLOOD_GROWTH_LIMIT, "direct memory grew by " + (peak - before) + " bytes");
            assertEquals(1, ServerSockets.awaitAtMost(server.port(), 1, TIMEOUT));
            assertEquals(List.of(), LeakDetectionExtension.collectReports());
        }
    }

    private static void assertPoolBytes(H2cConnection.Response response) {
        assertEquals(200, response.status());
        assertEquals(expected.length(), response.length());
        assertArrayEquals(expected.sha256(), response.sha256(), "the pool's bytes");
    }
}
