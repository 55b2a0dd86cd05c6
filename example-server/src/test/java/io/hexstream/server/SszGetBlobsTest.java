package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.SszBlobs;
import io.hexstream.server.testing.SszBlobs.BlobAndProofs;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Binary SSZ getBlobs over loopback (EIP-8178 draft): the same blobs as the JSON-RPC answers, the
 * statuses of the draft, the JWT of JSON-RPC, pipelining with JSON-RPC, and nothing leaked.
 */
class SszGetBlobsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final VersionedHash UNKNOWN = VersionedHash.decode("0x02" + "ee".repeat(31));
    private static EngineServerFixture osaka;
    private static EngineServerFixture prague;

    @BeforeAll
    static void start() {
        osaka = EngineServerFixture.start(Fork.OSAKA);
        prague = EngineServerFixture.start(Fork.PRAGUE);
    }

    @AfterAll
    static void stop() {
        osaka.close();
        prague.close();
    }

    @Test
    void v2IsTheJsonAnswersBlobsAndProofs() {
        List<VersionedHash> hashes = osaka.cycledHashes(9);
        HttpResponse<byte[]> response = SszBlobs.post(osaka, "/engine/v2/blobs", SszBlobs.request(hashes));
        assertOctetStream(response, 4 + 9 * (4 + 137_220));
        assertSameAsJson(SszBlobs.decodeV2(response.body()), osaka.getBlobs("V2", hashes), "proofs");
    }

    @Test
    void v3IsTheJsonAnswerWithEmptyListsForMissingBlobs() {
        List<VersionedHash> hashes = List.of(osaka.hashes().get(0), UNKNOWN, osaka.hashes().get(1));
        HttpResponse<byte[]> response = SszBlobs.post(osaka, "/engine/v3/blobs", SszBlobs.request(hashes));
        assertOctetStream(response, 4 + 3 * 4 + 2 * 137_224);
        List<BlobAndProofs> decoded = SszBlobs.decodeV3(response.body());
        assertNull(decoded.get(1));
        assertSameAsJson(decoded, osaka.getBlobs("V3", hashes), "proofs");
    }

    @Test
    void v1UnderPragueIsTheJsonAnswersBlobsAndProofs() {
        List<VersionedHash> hashes = prague.cycledHashes(3);
        HttpResponse<byte[]> response = SszBlobs.post(prague, "/engine/v1/blobs", SszBlobs.request(hashes));
        assertOctetStream(response, 4 + 3 * 131_120);
        assertSameAsJson(SszBlobs.decodeV1(response.body()), prague.getBlobs("V1", hashes), "proof");
    }

    @Test
    void emptyRequestsGetEmptyLists() {
        for (String path : List.of("/engine/v2/blobs", "/engine/v3/blobs")) {
            HttpResponse<byte[]> response = SszBlobs.post(osaka, path, SszBlobs.request(List.of()));
            assertOctetStream(response, 4);
            assertArrayEquals(new byte[] {4, 0, 0, 0}, response.body());
        }
    }

    @Test
    void aMissingBlobIs204ForV2AndV1() {
        List<VersionedHash> hashes = List.of(osaka.hashes().get(0), UNKNOWN);
        HttpResponse<byte[]> v2 = SszBlobs.post(osaka, "/engine/v2/blobs", SszBlobs.request(hashes));
        assertEquals(204, v2.statusCode());
        assertEquals(0, v2.body().length);
        HttpResponse<byte[]> v1 = SszBlobs.post(prague, "/engine/v1/blobs", SszBlobs.request(List.of(UNKNOWN)));
        assertEquals(204, v1.statusCode());
        assertEquals(0, v1.body().length);
    }

    @Test
    void malformedSszIs400WithTheFaultAndTheConnectionKept() throws Exception {
        byte[] badOffset = SszBlobs.request(osaka.hashes());
        badOffset[0] = 8;
        byte[] trailing = new byte[4 + 32 + 3];
        trailing[0] = 4;
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            assertText(connection, badOffset, 400, "malformed GetBlobsRequest: offset of blob_versioned_hashes is 8, must be 4");
            assertText(connection, new byte[] {4, 0}, 400,
                    "malformed GetBlobsRequest: 2 bytes, shorter than the 4-byte offset of blob_versioned_hashes");
            assertText(connection, trailing, 400,
                    "malformed GetBlobsRequest: blob_versioned_hashes is 35 bytes, not a multiple of 32");
            connection.send(SszBlobs.rawPost(osaka.token(), "/engine/v2/blobs", SszBlobs.request(List.of())));
            HttpConnection.Head head = connection.readHead();
            assertEquals(200, head.status());
            assertArrayEquals(new byte[] {4, 0, 0, 0}, connection.readBody(head));
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void moreThan128HashesIs413BeforeTheBodyIsRead() throws Exception {
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(SszBlobs.rawPost(osaka.token(), "/engine/v2/blobs", SszBlobs.request(osaka.cycledHashes(129))));
            HttpConnection.Head head = connection.readHead();
            assertEquals(413, head.status());
            assertEquals("GetBlobsRequest of 4132 bytes, at most 4100 (128 versioned hashes)\n",
                    new String(connection.readBody(head), StandardCharsets.UTF_8));
            assertTrue(connection.closedByServerWithin(Duration.ofSeconds(5)));
        }
    }

    @Test
    void moreThan128HashesInAChunkedBodyIs413Too() throws Exception {
        byte[] body = SszBlobs.request(osaka.cycledHashes(129));
        String head = "POST /engine/v3/blobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + osaka.token()
                + "\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length) + "\r\n";
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);
        request.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(request.toByteArray());
            HttpConnection.Head answer = connection.readHead();
            assertEquals(413, answer.status());
            assertEquals("GetBlobsRequest: 129 versioned hashes, at most 128\n",
                    new String(connection.readBody(answer), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aVersionNotServedUnderTheForkIs400() {
        HttpResponse<byte[]> v1 = SszBlobs.post(osaka, "/engine/v1/blobs", SszBlobs.request(List.of()));
        assertEquals(400, v1.statusCode());
        assertEquals("/engine/v1/blobs (engine_getBlobsV1) is not served under osaka\n", text(v1));
        HttpResponse<byte[]> v2 = SszBlobs.post(prague, "/engine/v2/blobs", SszBlobs.request(List.of()));
        assertEquals("/engine/v2/blobs (engine_getBlobsV2) is not served under prague\n", text(v2));
    }

    @Test
    void withoutOrWithABadJwtIs401() throws Exception {
        byte[] body = SszBlobs.request(osaka.hashes());
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(SszBlobs.rawPost(null, "/engine/v2/blobs", body));
            HttpConnection.Head head = connection.readHead();
            assertEquals(401, head.status());
            assertEquals("no Authorization header\n", new String(connection.readBody(head), StandardCharsets.UTF_8));
        }
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            String token = osaka.token();
            connection.send(SszBlobs.rawPost(token.substring(0, token.length() - 2) + "AA", "/engine/v3/blobs", body));
            HttpConnection.Head head = connection.readHead();
            assertEquals(401, head.status());
            assertTrue(new String(connection.readBody(head), StandardCharsets.UTF_8).startsWith("wrong signature"));
        }
    }

    @Test
    void otherPathsAre404AndOtherMethods405() throws Exception {
        for (String path : List.of("/engine/v4/blobs", "/engine/v2/blobs/", "/engine/v1/blobs/v2", "/engine/v2/blob", "/engine")) {
            HttpResponse<byte[]> response = SszBlobs.post(osaka, path, SszBlobs.request(List.of()));
            assertEquals(404, response.statusCode(), path);
            assertEquals(0, response.body().length);
        }
        HttpResponse<byte[]> get = osaka.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + osaka.port()
                + "/engine/v2/blobs")).header("Authorization", "Bearer " + osaka.token()).GET().build());
        assertEquals(405, get.statusCode());
    }

    @Test
    void sszAndJsonRpcPipelinedOnOneConnectionAreAnsweredInOrder() throws Exception {
        List<VersionedHash> hashes = osaka.cycledHashes(3);
        String json = request(7, "engine_getBlobsV2", hashParams(hashes));
        byte[] ssz = SszBlobs.rawPost(osaka.token(), "/engine/v2/blobs", SszBlobs.request(hashes));
        ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
        pipelined.writeBytes(HttpConnection.post(osaka.token(), json));
        pipelined.writeBytes(ssz);
        pipelined.writeBytes(HttpConnection.post(osaka.token(), request(8, "engine_getBlobsV3", hashParams(List.of(UNKNOWN)))));
        pipelined.writeBytes(ssz);
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(pipelined.toByteArray());
            JsonNode first = MAPPER.readTree(connection.readBody(connection.readHead()));
            assertEquals(7, first.get("id").asInt());
            for (int round = 0; round < 2; round++) {
                HttpConnection.Head head = connection.readHead();
                assertTrue(head.text().contains("content-type: application/octet-stream"), head.text());
                assertSameAsJson(SszBlobs.decodeV2(connection.readBody(head)), first.get("result"), "proofs");
                if (round == 0) {
                    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":[null]}",
                            new String(connection.readBody(connection.readHead()), StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void clientsHangingUpInTheBodyLeakNothing() throws Exception {
        byte[] request = SszBlobs.rawPost(osaka.token(), "/engine/v2/blobs", SszBlobs.request(osaka.cycledHashes(128)));
        for (long cut : new long[] {0, 1, 100_000, 5_000_000, 17_563_000}) {
            try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                connection.send(request);
                HttpConnection.Head head = connection.readHead();
                assertEquals(4 + 128 * 137_224, head.contentLength());
                assertEquals(cut, connection.discard(cut));
                connection.abort();
            }
        }
        assertEquals(0, ServerSockets.awaitAtMost(osaka.port(), 0, Duration.ofSeconds(30)));
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
        HttpResponse<byte[]> after = SszBlobs.post(osaka, "/engine/v2/blobs", SszBlobs.request(osaka.cycledHashes(128)));
        assertOctetStream(after, 4 + 128 * 137_224);
    }

    private static void assertText(HttpConnection connection, byte[] body, int status, String line) throws Exception {
        connection.send(SszBlobs.rawPost(osaka.token(), "/engine/v2/blobs", body));
        HttpConnection.Head head = connection.readHead();
        assertEquals(status, head.status());
        assertTrue(head.text().contains("content-type: text/plain; charset=utf-8"), head.text());
        assertEquals(line + "\n", new String(connection.readBody(head), StandardCharsets.UTF_8));
    }

    private static void assertOctetStream(HttpResponse<byte[]> response, long length) {
        assertEquals(200, response.statusCode(), () -> text(response));
        assertEquals("application/octet-stream", response.headers().firstValue("content-type").orElse(null));
        assertEquals(length, response.headers().firstValueAsLong("content-length").orElse(-1));
        assertEquals(length, response.body().length);
    }

    /** Each decoded entry equals the JSON result's at its index: {@code null}, or its blob and proofs. */
    private static void assertSameAsJson(List<BlobAndProofs> decoded, JsonNode json, String proofsField) {
        assertEquals(json.size(), decoded.size());
        for (int i = 0; i < decoded.size(); i++) {
            JsonNode entry = json.get(i);
            if (entry.isNull()) {
                assertNull(decoded.get(i), "entry " + i);
                continue;
            }
            assertArrayEquals(HexDecoder.decode(entry.get("blob").asText()), decoded.get(i).blob(), "blob " + i);
            ByteArrayOutputStream proofs = new ByteArrayOutputStream();
            JsonNode field = entry.get(proofsField);
            List<JsonNode> each = new ArrayList<>();
            if (field.isArray()) {
                field.forEach(each::add);
            } else {
                each.add(field);
            }
            each.forEach(proof -> proofs.writeBytes(HexDecoder.decode(proof.asText())));
            assertArrayEquals(proofs.toByteArray(), decoded.get(i).proofs(), "proofs " + i);
        }
    }

    private static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
