package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.RawH2cConnection;
import io.hexstream.server.testing.SszBlobs;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * h2c at the frame level with Netty's own HTTP/2 client ({@link H2cConnection}; {@link RawH2cConnection} for what it
 * would refuse to send), on the Engine API's port and on the IPC socket: getBlobsV2 and V4 of 128 blobs byte for byte
 * the HTTP/1.1 replies and the pool's bytes, with {@code content-length}; eight concurrent streams on one connection, a
 * bad JWT on one of them; a client window of 16 KiB; a body over its route's limit; {@code MAX_CONCURRENT_STREAMS}; a
 * request without {@code :authority}.
 */
class Http2ClientTest {
    private static final String JSON = "application/json";
    private static final String SSZ = "application/octet-stream";
    private static final String ALL_CELLS = "\"0x" + "ff".repeat(16) + "\"";
    private static Path socket;
    private static EngineServerFixture server;

    @BeforeAll
    static void start() throws IOException {
        socket = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "ipc-")
                .resolve("engine.ipc");
        server = EngineServerFixture.start(Fork.OSAKA, "--ipc-path", socket.toString());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        Files.deleteIfExists(socket.getParent());
    }

    @Test
    void getBlobsV2AndV4Of128BlobsAreTheHttp11RepliesOnThePortAndTheIpcSocket() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        String v2 = request(1, "engine_getBlobsV2", hashParams(hashes));
        String v4 = request(
                2, "engine_getBlobsV4", "[" + hashParams(hashes).replaceAll("^\\[|\\]$", "") + "," + ALL_CELLS + "]");
        PoolBodies.Expected pool =
                PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
        try (H2cConnection port = H2cConnection.open(server.port());
                H2cConnection ipc = H2cConnection.open(socket)) {
            for (String json : List.of(v2, v4)) {
                HttpResponse<byte[]> http11 = server.post(json);
                assertEquals(200, http11.statusCode());
                assertSameAsHttp11(http11, port.postJson(server.token(), json).response());
                assertSameAsHttp11(http11, ipc.postJson(null, json).response());
            }
            H2cConnection.Response fromPort = port.postJson(server.token(), v2).response();
            assertEquals(pool.length(), fromPort.length());
            assertArrayEquals(pool.sha256(), fromPort.sha256(), "the pool's bytes");
            byte[] ssz = SszBlobs.request(hashes);
            HttpResponse<byte[]> http11 = SszBlobs.post(server, "/engine/v1/blobs/v2", ssz);
            PoolBodies.Expected sszPool =
                    PoolBodies.sszBlobsV2(PoolBodies.entries(server.server().pool(), hashes));
            assertArrayEquals(sszPool.sha256(), HttpConnection.sha256().digest(http11.body()), "the pool's bytes");
            assertSameAsHttp11(
                    http11,
                    port.post("/engine/v1/blobs/v2", server.token(), SSZ, ssz).response());
            assertSameAsHttp11(
                    http11, ipc.post("/engine/v1/blobs/v2", null, SSZ, ssz).response());
        }
    }

    /** The same status, type and body as HTTP/1.1's, with a {@code content-length} of the body's length. */
    private static void assertSameAsHttp11(HttpResponse<byte[]> http11, H2cConnection.Response h2) {
        assertEquals(http11.statusCode(), h2.status());
        assertEquals(http11.headers().firstValue("content-type").orElseThrow(), h2.header("content-type"));
        assertEquals(Long.toString(h2.length()), h2.header("content-length"));
        assertEquals(http11.body().length, h2.length());
        assertArrayEquals(HttpConnection.sha256().digest(http11.body()), h2.sha256(), "the HTTP/1.1 reply's bytes");
    }

    @Test
    void eightConcurrentStreamsOneWithABadJwt() throws Exception {
        String json = request(7, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        HttpResponse<byte[]> http11 = server.post(json);
        HttpConnection.Head refusedHead;
        byte[] refusedBody;
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            connection.send(HttpConnection.post("not.a.token", json));
            refusedHead = connection.readHead();
            refusedBody = connection.readBody(refusedHead);
        }
        assertEquals(401, refusedHead.status());
        try (H2cConnection connection = H2cConnection.open(server.port())) {
            List<H2cConnection.Exchange> streams = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                streams.add(connection.postJson(i == 3 ? "not.a.token" : server.token(), json));
            }
            for (int i = 0; i < 8; i++) {
                H2cConnection.Response response = streams.get(i).response();
                if (i == 3) {
                    assertEquals(401, response.status());
                    assertEquals(new String(refusedBody, StandardCharsets.UTF_8), response.text());
                    assertEquals(
                            headerOf(refusedHead, "content-type"),
                            Optional.ofNullable(response.header("content-type")));
                    assertEquals(Long.toString(refusedBody.length), response.header("content-length"));
                } else {
                    assertSameAsHttp11(http11, response);
                }
            }
            assertFalse(connection.closed().isDone(), "the connection goes on");
            assertSameAsHttp11(http11, connection.postJson(server.token(), json).response());
        }
    }

    private static Optional<String> headerOf(HttpConnection.Head head, String name) {
        return head.text()
                .lines()
                .filter(line -> line.regionMatches(true, 0, name + ":", 0, name.length() + 1))
                .map(line -> line.substring(name.length() + 1).trim())
                .findFirst();
    }

    @Test
    void concurrentStreamsGetDataFramesAsLargeAsAStreamAlone() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        String json = request(1, "engine_getBlobsV2", hashParams(hashes));
        PoolBodies.Expected pool =
                PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
        try (H2cConnection connection = H2cConnection.open(server.port())) {
            H2cConnection.Exchange alone = connection.postJson(server.token(), json);
            assertEquals(pool.length(), alone.response().length());
            // 16 KiB frames, and a shorter one at the end of each of the body's chunks
            long minimum = (pool.length() + 16 * 1024 - 1) / (16 * 1024);
            assertTrue(alone.dataFrames() >= minimum, alone.dataFrames() + " DATA frames");
            List<H2cConnection.Exchange> together = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                together.add(connection.postJson(server.token(), json));
            }
            for (H2cConnection.Exchange stream : together) {
                assertArrayEquals(pool.sha256(), stream.response().sha256(), "the pool's bytes");
                // Netty's default allocation quantum of 1 KiB cut them into some 26,000 frames each
                assertTrue(
                        stream.dataFrames() < 2 * alone.dataFrames(),
                        stream.dataFrames() + " DATA frames, " + alone.dataFrames() + " alone");
            }
        }
    }

    @Test
    void aClientWindowOf16KibGetsThe35MbReplyWhole() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        String json = request(1, "engine_getBlobsV2", hashParams(hashes));
        PoolBodies.Expected pool =
                PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
        try (H2cConnection connection = H2cConnection.open(
                new InetSocketAddress("127.0.0.1", server.port()), 16 * 1024, H2cConnection.DEFAULT_WINDOW)) {
            H2cConnection.Response response =
                    connection.postJson(server.token(), json).response();
            assertEquals(200, response.status());
            assertEquals(Long.toString(pool.length()), response.header("content-length"));
            assertEquals(pool.length(), response.length());
            assertArrayEquals(pool.sha256(), response.sha256(), "the pool's bytes");
        }
    }

    @Test
    void aBodyOverItsRoutesLimitGets413OnItsStreamAndTheConnectionGoesOn() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        byte[] body = SszBlobs.request(hashes);
        long tooLong = body.length + 1L;
        HttpConnection.Head http11Head;
        byte[] http11Body;
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            connection.send(("POST /engine/v1/blobs/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                            + server.token() + "\r\nContent-Type: " + SSZ + "\r\nContent-Length: " + tooLong
                            + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            http11Head = connection.readHead();
            http11Body = connection.readBody(http11Head);
        }
        assertEquals(413, http11Head.status());
        HttpResponse<byte[]> served = SszBlobs.post(server, "/engine/v1/blobs/v2", body);
        try (H2cConnection connection = H2cConnection.open(server.port())) {
            H2cConnection.Exchange refused = connection.send(
                    H2cConnection.post("/engine/v1/blobs/v2", server.token(), SSZ, tooLong), null, false, true);
            H2cConnection.Response response = refused.response();
            assertEquals(413, response.status());
            assertEquals(headerOf(http11Head, "content-type"), Optional.ofNullable(response.header("content-type")));
            assertEquals(new String(http11Body, StandardCharsets.UTF_8), response.text());
            assertEquals(Long.toString(http11Body.length), response.header("content-length"));
            assertEquals(Http2Error.NO_ERROR.code(), refused.reset().get(10, TimeUnit.SECONDS));
            H2cConnection.Response after = connection
                    .post("/engine/v1/blobs/v2", server.token(), SSZ, body)
                    .response();
            assertEquals(200, after.status());
            assertArrayEquals(HttpConnection.sha256().digest(served.body()), after.sha256());
            assertFalse(connection.closed().isDone(), "the connection goes on");
            Http2Headers unsized = H2cConnection.post("/engine/v1/blobs/v2", server.token(), SSZ, 0);
            unsized.remove("content-length");
            H2cConnection.Response grown = connection
                    .send(unsized, new byte[(int) tooLong], true, true)
                    .response();
            assertEquals(413, grown.status(), "a body without content-length past the route's limit");
            assertFalse(connection.closed().isDone(), "the connection goes on");
        }
    }

    @Test
    void aRequestWithoutAuthorityIsServed() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(6)));
        HttpResponse<byte[]> http11 = server.post(json);
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        Http2Headers headers = H2cConnection.post("/", server.token(), JSON, body.length);
        headers.remove(Http2Headers.PseudoHeaderName.AUTHORITY.value());
        assertNull(headers.authority());
        try (H2cConnection connection = H2cConnection.open(server.port())) {
            assertSameAsHttp11(
                    http11, connection.send(headers, body, true, true).response());
        }
    }

    @Test
    void theStreamPastMaxConcurrentStreamsIsRefused() throws Exception {
        int max = 16; // --max-concurrent-streams, by default --max-pipelined's 16
        byte[] body = SszBlobs.request(server.cycledHashes(6));
        HttpResponse<byte[]> served = SszBlobs.post(server, "/engine/v1/blobs/v2", body);
        try (RawH2cConnection connection = RawH2cConnection.open(server.port(), 0)) {
            connection.ping(1);
            connection.flush();
            connection.pingAck(1).get(10, TimeUnit.SECONDS); // the server's SETTINGS are read and acknowledged
            for (int i = 0; i <= max; i++) { // each waits for its body
                connection.headers(
                        1 + 2 * i, H2cConnection.post("/engine/v1/blobs/v2", server.token(), SSZ, body.length), false);
            }
            connection.flush();
            int refused = 1 + 2 * max;
            assertEquals(
                    Http2Error.REFUSED_STREAM.code(), connection.reset(refused).get(10, TimeUnit.SECONDS));
            connection.ping(2);
            connection.flush();
            connection.pingAck(2).get(10, TimeUnit.SECONDS);
            List<Integer> resetOthers = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                if (connection.reset(1 + 2 * i).isDone()) {
                    resetOthers.add(1 + 2 * i);
                }
            }
            assertEquals(List.of(), resetOthers, "streams reset among those within the limit");
            connection.data(1, body, true); // the first stream completes: a place is free
            connection.flush();
            assertEquals("200", connection.status(1).get(10, TimeUnit.SECONDS));
            connection.reset(3, Http2Error.CANCEL);
            connection.headers(
                    refused + 2, H2cConnection.post("/engine/v1/blobs/v2", server.token(), SSZ, body.length), false);
            connection.data(refused + 2, body, true);
            connection.flush();
            assertEquals("200", connection.status(refused + 2).get(10, TimeUnit.SECONDS));
            assertFalse(connection.closed().isDone());
        }
        assertEquals(200, served.statusCode());
    }
}
