package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.PoolBodies;
import io.netty.handler.codec.http2.Http2Error;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A server stopped while an HTTP/2 stream's 35 MB getBlobsV2 reply is in flight: it sends GOAWAY ({@code NO_ERROR}, the
 * stream in flight the last it takes), lets the reply finish within its drain timeout, then closes the connection.
 */
class Http2StopTest {
    private static final long TIMEOUT_SECONDS = 10;

    @Test
    void stopSendsGoAwayAndTheReplyInFlightFinishes() throws Exception {
        EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA);
        CompletableFuture<Void> stopped = null;
        // Windows as large as the JDK client's (16 MiB a stream, 32 MiB the connection): the reply is bounded by the
        // server's drain timeout, not by the client's WINDOW_UPDATEs.
        try (H2cConnection connection =
                H2cConnection.open(new InetSocketAddress("127.0.0.1", server.port()), 1 << 24, 1 << 25)) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            String json = request(1, "engine_getBlobsV2", hashParams(hashes));
            PoolBodies.Expected expected =
                    PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
            H2cConnection.Exchange inFlight = connection.send(
                    H2cConnection.post("/", server.token(), "application/json", json.length()),
                    json.getBytes(StandardCharsets.UTF_8),
                    true,
                    false);
            inFlight.stopReadingAfter(1); // the reply has begun, and waits for the client
            inFlight.resumeReading();
            inFlight.firstData().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            stopped = CompletableFuture.runAsync(server::close);
            H2cConnection.GoAway goAway = connection.goAway().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(Http2Error.NO_ERROR.code(), goAway.errorCode());
            assertEquals(inFlight.id(), goAway.lastStreamId());
            assertTrue(inFlight.received() < expected.length(), inFlight.received() + " bytes read before GOAWAY");
            assertFalse(stopped.isDone(), "the server waits for the reply in flight");
            long resumed = System.nanoTime();
            inFlight.resumeReading();
            H2cConnection.Response response;
            try {
                response = inFlight.response();
            } catch (ExecutionException e) {
                throw new AssertionError(
                        "the reply in flight ended after " + inFlight.received() + " bytes, "
                                + (System.nanoTime() - resumed) / 1_000_000 + " ms after the client read again",
                        e);
            }
            assertEquals(200, response.status());
            assertEquals(expected.length(), response.length());
            assertArrayEquals(expected.sha256(), response.sha256(), "the pool's bytes");
            assertTrue(connection.closed().await(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS)), "closed after it");
            stopped.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            if (stopped == null) {
                server.close();
            }
        }
    }
}
