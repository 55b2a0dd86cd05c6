package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cli.Version;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.SszBlobs;
import io.hexstream.server.testing.SszBlobs.Entry;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The blob routes over loopback (execution-apis #793, {@code refactor-ssz.md}, "{@code POST /blobs/v1}" …
 * "{@code /v4}"; {@code refactor.md}, "Error model"): small answers against bytes written by hand from the document's
 * layout and the pool's bytes, 128-blob answers decoded by the tests' own SSZ decoder and compared with the JSON-RPC
 * answers, V4's bit order against c-kzg's cells, every status, and readers that hang up mid-body.
 */
class SszGetBlobsTest {
    private static final VersionedHash UNKNOWN = VersionedHash.decode("0x01" + "ee".repeat(31));
    private static final String PROBLEM = "application/problem+json";
    private static EngineServerFixture osaka;
    private static EngineServerFixture prague;

    @BeforeAll
    static void start() throws InterruptedException {
        osaka = EngineServerFixture.start(Fork.OSAKA);
        prague = EngineServerFixture.start(Fork.PRAGUE);
        awaitExtensionCells(osaka);
    }

    @AfterAll
    static void stop() {
        osaka.close();
        prague.close();
    }

    /** Waits until the pool's background work has computed every blob's extension cells, so that V4 has them all. */
    static void awaitExtensionCells(EngineServerFixture server) throws InterruptedException {
        Poll.until(
                () -> server.hashes().stream().noneMatch(h -> entry(server, h).extensionCells() == null),
                Duration.ofSeconds(60),
                "extension cells computed");
    }

    // ---- bytes written by hand from the layout

    @Test
    void oneBlobV2IsTheLayoutByHand() {
        VersionedHash hash = osaka.hashes().get(0);
        BlobEntry e = entry(osaka, hash);
        // container offset 4; the list's one offset 4; available 1, contents at 5; blob, proofs at 131,076
        byte[] expected = concat("04000000" + "04000000" + "01" + "05000000", e.blob(), "04000200", e.cellProofs());
        assertOctetStream(expected, SszBlobs.post(osaka, "/engine/v1/blobs/v2", SszBlobs.request(List.of(hash))));
        assertOctetStream(expected, SszBlobs.post(osaka, "/engine/v1/blobs/v3", SszBlobs.request(List.of(hash))));
    }

    @Test
    void v1UnderPragueIsFixedSizeEntriesZerosWhereUnavailable() {
        VersionedHash hash = prague.hashes().get(0);
        BlobEntry e = entry(prague, hash);
        // the container offset; then one entry available = 0 with a zero blob and proof, then the blob's
        byte[] expected = concat("04000000" + "00", new byte[131_072 + 48], "01", e.blob(), e.blobProof());
        assertEquals(4 + 2 * 131_121, expected.length);
        assertOctetStream(
                expected, SszBlobs.post(prague, "/engine/v1/blobs/v1", SszBlobs.request(List.of(UNKNOWN, hash))));
    }

    @Test
    void anUnavailableV3EntryIsAZeroBlobAndNoProofs() {
        VersionedHash hash = osaka.hashes().get(1);
        BlobEntry e = entry(osaka, hash);
        // offsets 8 and 8 + 131,081 = 131,089 (0x20011); the unavailable entry: 0, 5, zero blob, 131,076, no proofs
        byte[] expected = concat(
                "04000000" + "08000000" + "11000200" + "00" + "05000000",
                new byte[131_072],
                "04000200" + "01" + "05000000",
                e.blob(),
                "04000200",
                e.cellProofs());
        assertOctetStream(
                expected, SszBlobs.post(osaka, "/engine/v1/blobs/v3", SszBlobs.request(List.of(UNKNOWN, hash))));
    }

    @Test
    void v4WithCells0And5And64And127IsTheLayoutByHand() {
        VersionedHash hash = osaka.hashes().get(2);
        BlobEntry e = entry(osaka, hash);
        byte[] cells = CellFixtures.allCells(e.blob());
        // offset 20, then the Bitvector[128]: bits 0 and 5 of byte 0, bit 0 of byte 8, bit 7 of byte 15
        byte[] request = concat("14000000" + "21000000000000000100000000000080", hash.toBytes());
        StringBuilder head = new StringBuilder("04000000" + "04000000" + "01" + "05000000");
        // BlobCellsAndProofs: blob_cells at 8, proofs at 8 + 512 + 4 × 2,048 = 8,712 (0x2208)
        head.append("08000000" + "08220000");
        head.append(slots("00020000", "000a0000", "00120000", "001a0000")); // 512, +2,048 after 0, 5, 64
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.writeBytes(hex(head.toString()));
        for (int cell : new int[] {0, 5, 64, 127}) {
            expected.write(cells, cell * 2048, 2048);
        }
        expected.writeBytes(hex(slots("00020000", "30020000", "60020000", "90020000"))); // 512, +48 after 0, 5, 64
        for (int cell : new int[] {0, 5, 64, 127}) {
            expected.write(e.cellProofs(), cell * 48, 48);
        }
        assertOctetStream(expected.toByteArray(), SszBlobs.post(osaka, "/engine/v1/blobs/v4", request));
    }

    @Test
    void anUnavailableV4EntryHas128EmptySlotsInEachList() {
        byte[] request = concat("14000000" + "21000000000000000100000000000080", UNKNOWN.toBytes());
        // available 0; blob_cells at 8, proofs at 8 + 512 = 520 (0x208); every slot's offset 512: all empty
        String expected = "04000000" + "04000000" + "00" + "05000000" + "08000000" + "08020000" + "00020000".repeat(128)
                + "00020000".repeat(128);
        assertOctetStream(hex(expected), SszBlobs.post(osaka, "/engine/v1/blobs/v4", request));
    }

    @Test
    void emptyRequestsGetEmptyLists() {
        for (String path : List.of("/engine/v1/blobs/v2", "/engine/v1/blobs/v3")) {
            assertOctetStream(hex("04000000"), SszBlobs.post(osaka, path, SszBlobs.request(List.of())));
        }
        assertOctetStream(
                hex("04000000"), SszBlobs.post(osaka, "/engine/v1/blobs/v4", SszBlobs.requestV4(List.of(), 3)));
        assertOctetStream(hex("04000000"), SszBlobs.post(prague, "/engine/v1/blobs/v1", SszBlobs.request(List.of())));
    }

    // ---- 128 blobs, decoded independently, against JSON-RPC

    @Test
    void v1Of128IsTheJsonAnswer() {
        List<VersionedHash> hashes = withUnknowns(prague, 128);
        List<Entry> decoded =
                SszBlobs.decodeV1(ok(SszBlobs.post(prague, "/engine/v1/blobs/v1", SszBlobs.request(hashes))));
        JsonNode json = prague.getBlobs("V1", hashes);
        assertEquals(128, decoded.size());
        for (int i = 0; i < 128; i++) {
            Entry entry = decoded.get(i);
            assertEquals(!json.get(i).isNull(), entry.available(), "available " + i);
            byte[] blob = entry.available() ? bytes(json.get(i).get("blob")) : new byte[131_072];
            byte[] proof = entry.available() ? bytes(json.get(i).get("proof")) : new byte[48];
            assertArrayEquals(blob, entry.blob(), "blob " + i);
            assertArrayEquals(proof, entry.proofs().get(0), "proof " + i);
        }
    }

    @Test
    void v2AndV3Of128AreTheJsonAnswers() {
        List<VersionedHash> all = osaka.cycledHashes(128);
        assertSameAsJson(
                SszBlobs.decodeV2(ok(SszBlobs.post(osaka, "/engine/v1/blobs/v2", SszBlobs.request(all)))),
                osaka.getBlobs("V2", all));
        List<VersionedHash> some = withUnknowns(osaka, 128);
        assertSameAsJson(
                SszBlobs.decodeV2(ok(SszBlobs.post(osaka, "/engine/v1/blobs/v3", SszBlobs.request(some)))),
                osaka.getBlobs("V3", some));
    }

    @Test
    void v4Of128IsTheJsonAnswerForAnyCells() {
        List<VersionedHash> hashes = withUnknowns(osaka, 128);
        Random random = new Random(22);
        List<int[]> selections = List.of(
                IntStream.range(0, 128).toArray(),
                new int[0],
                new int[] {0, 5, 64, 127},
                IntStream.range(0, 128).filter(i -> random.nextBoolean()).toArray());
        for (int[] cells : selections) {
            byte[] body = ok(SszBlobs.post(osaka, "/engine/v1/blobs/v4", SszBlobs.requestV4(hashes, cells)));
            JsonNode json = osaka.call(request(
                            1,
                            "engine_getBlobsV4",
                            hashParams(hashes).replaceAll("]$", "") + ",\"" + CellFixtures.bitarray(cells) + "\"]"))
                    .get("result");
            assertV4SameAsJson(SszBlobs.decodeV4(body), json, cells);
        }
    }

    /**
     * Cell {@code i} of {@code indices_bitarray} is bit {@code i % 8} of byte {@code i / 8}; its slot holds c-kzg's
     * cell {@code i}.
     */
    @Test
    void v4ReadsTheBitvectorLeastSignificantBitFirst() {
        VersionedHash hash = osaka.hashes().get(3);
        byte[] cells = CellFixtures.allCells(entry(osaka, hash).blob());
        for (int cell : new int[] {0, 1, 7, 8, 63, 64, 100, 127}) {
            byte[] request = new byte[20 + 32];
            request[0] = 20;
            request[4 + cell / 8] = (byte) (1 << (cell % 8));
            System.arraycopy(hash.toBytes(), 0, request, 20, 32);
            Entry entry = SszBlobs.decodeV4(ok(SszBlobs.post(osaka, "/engine/v1/blobs/v4", request)))
                    .get(0);
            for (int slot = 0; slot < 128; slot++) {
                if (slot == cell) {
                    assertArrayEquals(
                            Arrays.copyOfRange(cells, cell * 2048, cell * 2048 + 2048),
                            entry.cells().get(slot));
                    assertArrayEquals(
                            Arrays.copyOfRange(entry(osaka, hash).cellProofs(), cell * 48, cell * 48 + 48),
                            entry.proofs().get(slot));
                } else {
                    assertNull(entry.cells().get(slot), "cell " + cell + ", slot " + slot);
                    assertNull(entry.proofs().get(slot), "cell " + cell + ", slot " + slot);
                }
            }
        }
    }

    // ---- statuses

    @Test
    void aMissingBlobIs204ForV2AloneWithoutContentLength() throws Exception {
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(SszBlobs.rawPost(
                    osaka.token(),
                    "/engine/v1/blobs/v2",
                    SszBlobs.request(List.of(osaka.hashes().get(0), UNKNOWN))));
            HttpConnection.Head head = connection.readHead();
            assertEquals(204, head.status());
            assertFalse(head.text().contains("content-length"), head.text());
            connection.send(SszBlobs.rawPost(osaka.token(), "/engine/v1/blobs/v2", SszBlobs.request(List.of())));
            HttpConnection.Head next = connection.readHead();
            assertEquals(200, next.status());
            assertArrayEquals(hex("04000000"), connection.readBody(next));
        }
    }

    @Test
    void malformedSszIs400SszDecodeErrorAndTheConnectionKept() throws Exception {
        byte[] badOffset = SszBlobs.request(osaka.hashes());
        badOffset[0] = 8;
        byte[] trailing = new byte[4 + 32 + 3];
        trailing[0] = 4;
        byte[] v4WithV2Offset = SszBlobs.requestV4(osaka.hashes(), 1);
        v4WithV2Offset[0] = 4;
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            for (byte[] body : List.of(badOffset, new byte[] {4, 0}, new byte[0], trailing)) {
                assertProblem(
                        connection,
                        "/engine/v1/blobs/v3",
                        body,
                        400,
                        "{\"type\":\"/engine-api/errors/ssz-decode-error\"}");
            }
            for (byte[] body : List.of(v4WithV2Offset, SszBlobs.request(List.of()), new byte[19])) {
                assertProblem(
                        connection,
                        "/engine/v1/blobs/v4",
                        body,
                        400,
                        "{\"type\":\"/engine-api/errors/ssz-decode-error\"}");
            }
            connection.send(SszBlobs.rawPost(osaka.token(), "/engine/v1/blobs/v2", SszBlobs.request(List.of())));
            HttpConnection.Head head = connection.readHead();
            assertEquals(200, head.status());
            assertArrayEquals(hex("04000000"), connection.readBody(head));
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void moreThan128HashesIs413BeforeTheBodyIsRead() throws Exception {
        for (String path : List.of("/engine/v1/blobs/v2", "/engine/v1/blobs/v4")) {
            boolean v4 = path.endsWith("v4");
            byte[] body =
                    v4 ? SszBlobs.requestV4(osaka.cycledHashes(129), 0) : SszBlobs.request(osaka.cycledHashes(129));
            try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                connection.send(SszBlobs.rawPost(osaka.token(), path, body));
                HttpConnection.Head head = connection.readHead();
                assertEquals(413, head.status());
                assertTrue(head.text().contains("content-type: " + PROBLEM), head.text());
                assertEquals(
                        "{\"type\":\"/engine-api/errors/request-too-large\",\"detail\":\"a body of "
                                + (v4 ? 4148 : 4132) + " bytes, at most " + (v4 ? 4116 : 4100)
                                + " (128 versioned hashes)\"}",
                        new String(connection.readBody(head), StandardCharsets.UTF_8));
                assertTrue(connection.closedByServerWithin(Duration.ofSeconds(5)));
            }
        }
    }

    @Test
    void moreThan128HashesInAChunkedBodyIs413Too() throws Exception {
        byte[] body = SszBlobs.request(osaka.cycledHashes(129));
        String head = "POST /engine/v1/blobs/v3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + osaka.token()
                + "\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length) + "\r\n";
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);
        request.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(request.toByteArray());
            HttpConnection.Head answer = connection.readHead();
            assertEquals(413, answer.status());
            assertEquals(
                    "{\"type\":\"/engine-api/errors/request-too-large\",\"detail\":\"a body over 4100 bytes, at most"
                            + " 4100 (128 versioned hashes)\"}",
                    new String(connection.readBody(answer), StandardCharsets.UTF_8));
        }
    }

    @Test
    void theLimitIsMaxBlobsPerRequestWhenLower() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-blobs-per-request", "2")) {
            HttpResponse<byte[]> response =
                    SszBlobs.post(server, "/engine/v1/blobs/v3", SszBlobs.request(server.cycledHashes(3)));
            assertEquals(413, response.statusCode());
            assertEquals(
                    "{\"type\":\"/engine-api/errors/request-too-large\",\"detail\":\"a body of 100 bytes, at most 68"
                            + " (2 versioned hashes)\"}",
                    text(response));
            assertEquals(
                    200,
                    SszBlobs.post(server, "/engine/v1/blobs/v3", SszBlobs.request(server.cycledHashes(2)))
                            .statusCode());
            assertTrue(text(get(server, "/engine/v1/capabilities")).contains("{\"blobs.max_versioned_hashes\":2}"));
        }
    }

    @Test
    void aRevisionNotServedUnderTheForkIs404MethodNotFound() {
        HttpResponse<byte[]> v1 = SszBlobs.post(osaka, "/engine/v1/blobs/v1", SszBlobs.request(List.of()));
        assertEquals(404, v1.statusCode());
        assertEquals(PROBLEM, v1.headers().firstValue("content-type").orElse(null));
        assertEquals(
                "{\"type\":\"/engine-api/errors/method-not-found\",\"detail\":\"/engine/v1/blobs/v1 is not served"
                        + " under osaka\"}",
                text(v1));
        for (String revision : List.of("v2", "v3", "v4")) {
            HttpResponse<byte[]> response = SszBlobs.post(
                    prague,
                    "/engine/v1/blobs/" + revision,
                    revision.equals("v4") ? SszBlobs.requestV4(List.of()) : SszBlobs.request(List.of()));
            assertEquals(
                    "{\"type\":\"/engine-api/errors/method-not-found\",\"detail\":\"/engine/v1/blobs/" + revision
                            + " is not served under prague\"}",
                    text(response));
        }
    }

    @Test
    void anotherContentTypeIs415AndNoneIsTaken() throws Exception {
        byte[] body = SszBlobs.request(List.of());
        String head = "POST /engine/v1/blobs/v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + osaka.token()
                + "\r\nContent-Length: 4\r\n";
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            for (String type : new String[] {"", "Content-Type: Application/Octet-Stream; q=1\r\n"}) {
                connection.send(concat((head + type + "\r\n").getBytes(StandardCharsets.US_ASCII), body));
                HttpConnection.Head answer = connection.readHead();
                assertEquals(200, answer.status(), type);
                assertArrayEquals(hex("04000000"), connection.readBody(answer));
            }
            connection.send(concat(
                    (head + "Content-Type: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII), body));
            HttpConnection.Head answer = connection.readHead();
            assertEquals(415, answer.status());
            assertEquals(
                    "{\"type\":\"/engine-api/errors/unsupported-media-type\",\"detail\":\"Content-Type"
                            + " application/json, not application/octet-stream\"}",
                    new String(connection.readBody(answer), StandardCharsets.UTF_8));
            assertTrue(connection.closedByServerWithin(Duration.ofSeconds(5)));
        }
    }

    @Test
    void ethExecutionVersionIsIgnored() {
        List<VersionedHash> hashes = osaka.cycledHashes(2);
        byte[] plain = ok(SszBlobs.post(osaka, "/engine/v1/blobs/v3", SszBlobs.request(hashes)));
        HttpResponse<byte[]> withHeader =
                osaka.send(HttpRequest.newBuilder(osaka.uri().resolve("/engine/v1/blobs/v3"))
                        .header("Authorization", "Bearer " + osaka.token())
                        .header("Eth-Execution-Version", "prague")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(SszBlobs.request(hashes)))
                        .build());
        assertArrayEquals(plain, ok(withHeader));
    }

    @Test
    void withoutOrWithABadJwtIs401OnEveryRoute() throws Exception {
        byte[] body = SszBlobs.request(osaka.hashes());
        for (String path : List.of("/engine/v1/blobs/v2", "/engine/v1/blobs/v4")) {
            try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                connection.send(SszBlobs.rawPost(null, path, body));
                HttpConnection.Head head = connection.readHead();
                assertEquals(401, head.status());
                assertEquals(
                        "no Authorization header\n", new String(connection.readBody(head), StandardCharsets.UTF_8));
            }
            try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                String token = osaka.token();
                connection.send(SszBlobs.rawPost(token.substring(0, token.length() - 2) + "AA", path, body));
                HttpConnection.Head head = connection.readHead();
                assertEquals(401, head.status());
                assertTrue(new String(connection.readBody(head), StandardCharsets.UTF_8).startsWith("wrong signature"));
            }
        }
        for (String path : List.of("/engine/v1/capabilities", "/engine/v1/identity")) {
            HttpResponse<byte[]> response = osaka.send(
                    HttpRequest.newBuilder(osaka.uri().resolve(path)).GET().build());
            assertEquals(401, response.statusCode(), path);
        }
    }

    @Test
    void otherPathsUnderEngineAre404MethodNotFoundAndOtherMethods405() throws Exception {
        // refactor.md, "Error model": 404, type /engine-api/errors/method-not-found, "URL does not match any
        // endpoint"; a problem has type and, optionally, detail, nothing else ("Drop title, status, instance").
        JsonNode spec = new ObjectMapper().readTree("{\"type\":\"/engine-api/errors/method-not-found\"}");
        for (String path : List.of(
                "/engine/v1/blobs/v5",
                "/engine/v1/blobs",
                "/engine/v2/blobs",
                "/engine/v1/blobs/v2/",
                "/engine/v1/payloads",
                "/engine/v2/capabilities?x=1")) {
            for (HttpResponse<byte[]> response :
                    List.of(SszBlobs.post(osaka, path, SszBlobs.request(List.of())), get(osaka, path))) {
                assertEquals(404, response.statusCode(), path);
                assertEquals(
                        PROBLEM, response.headers().firstValue("content-type").orElse(null), path);
                JsonNode problem = new ObjectMapper().readTree(response.body());
                assertEquals(List.of("type", "detail"), fieldNames(problem), path);
                assertEquals(spec.get("type"), problem.get("type"), path);
                assertEquals(
                        "no endpoint at this URL; GET /engine/v1/capabilities lists those served",
                        problem.get("detail").textValue(),
                        path);
            }
        }
        assertEquals(405, get(osaka, "/engine/v1/blobs/v2").statusCode());
        assertEquals(
                405,
                SszBlobs.post(osaka, "/engine/v1/capabilities", new byte[0]).statusCode());
    }

    @Test
    void anUnknownPathUnderEngineNeedsTheJwtAndOneOutsideIsAnEmpty404() throws Exception {
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(SszBlobs.rawPost(null, "/engine/v9/blobs", new byte[] {1, 2}));
            HttpConnection.Head head = connection.readHead();
            assertEquals(401, head.status(), head.text());
        }
        for (String path : List.of("/engine", "/other", "/enginex/v1/blobs/v2")) {
            try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                connection.send(SszBlobs.rawPost(osaka.token(), path, new byte[] {1, 2}));
                HttpConnection.Head head = connection.readHead();
                assertEquals(
                        "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n", head.text(), path);
            }
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    // ---- capabilities and identity

    @Test
    void capabilitiesListTheForkAndTheRevisionsItServes() {
        String common = "\"fork_scoped_endpoints\":[],\"independently_versioned\":{\"blobs\":[%s]},"
                + "\"unscoped_endpoints\":[\"capabilities\",\"identity\"],\"limits\":{\"blobs.max_versioned_hashes\""
                + ":128}}";
        HttpResponse<byte[]> response = get(osaka, "/engine/v1/capabilities");
        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("content-type").orElse(null));
        assertEquals("{\"supported_forks\":[\"osaka\"]," + common.formatted("\"v2\",\"v3\",\"v4\""), text(response));
        assertEquals(
                "{\"supported_forks\":[\"prague\"]," + common.formatted("\"v1\""),
                text(get(prague, "/engine/v1/capabilities")));
        try (EngineServerFixture amsterdam = EngineServerFixture.start(Fork.AMSTERDAM)) {
            assertEquals(
                    "{\"supported_forks\":[\"amsterdam\"]," + common.formatted("\"v2\",\"v3\",\"v4\""),
                    text(get(amsterdam, "/engine/v1/capabilities")));
        }
    }

    @Test
    void identityIsOneClientVersionOfTheBuild() throws Exception {
        HttpResponse<byte[]> response = get(osaka, "/engine/v1/identity");
        assertEquals(200, response.statusCode());
        assertEquals(
                "application/json",
                response.headers().firstValue("content-type").orElse(null));
        String version = new Version().getVersion()[0].substring("hexstream-example-server ".length());
        Process git = new ProcessBuilder("git", "rev-parse", "HEAD")
                .redirectErrorStream(true)
                .start();
        String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        String commit = git.waitFor() == 0 ? head.substring(0, 8) : "00000000";
        assertEquals(
                "[{\"code\":\"HS\",\"name\":\"hexstream\",\"version\":\"" + version + "\",\"commit\":\"0x" + commit
                        + "\"}]",
                text(response));
    }

    // ---- pipelining and readers that leave

    @Test
    void sszAndJsonRpcPipelinedOnOneConnectionAreAnsweredInOrder() throws Exception {
        List<VersionedHash> hashes = osaka.cycledHashes(3);
        String json = request(7, "engine_getBlobsV2", hashParams(hashes));
        byte[] ssz = SszBlobs.rawPost(osaka.token(), "/engine/v1/blobs/v2", SszBlobs.request(hashes));
        ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
        pipelined.writeBytes(HttpConnection.post(osaka.token(), json));
        pipelined.writeBytes(ssz);
        pipelined.writeBytes(
                HttpConnection.post(osaka.token(), request(8, "engine_getBlobsV3", hashParams(List.of(UNKNOWN)))));
        pipelined.writeBytes(ssz);
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(pipelined.toByteArray());
            JsonNode first = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(connection.readBody(connection.readHead()));
            assertEquals(7, first.get("id").asInt());
            for (int round = 0; round < 2; round++) {
                HttpConnection.Head head = connection.readHead();
                assertTrue(head.text().contains("content-type: application/octet-stream"), head.text());
                assertSameAsJson(SszBlobs.decodeV2(connection.readBody(head)), first.get("result"));
                if (round == 0) {
                    assertEquals(
                            "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":[null]}",
                            new String(connection.readBody(connection.readHead()), StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    void clientsHangingUpInTheBodyLeakNothingAndTheNextIsServed() throws Exception {
        byte[] v2 = SszBlobs.rawPost(osaka.token(), "/engine/v1/blobs/v2", SszBlobs.request(osaka.cycledHashes(128)));
        byte[] v4 = SszBlobs.rawPost(
                osaka.token(),
                "/engine/v1/blobs/v4",
                SszBlobs.requestV4(
                        osaka.cycledHashes(128), IntStream.range(0, 128).toArray()));
        long v2Length = 4 + 128 * (4 + 137_225L);
        long v4Length = 4 + 128 * (4 + 5 + 8 + 2 * 512 + 128 * (2048 + 48L));
        Set<Integer> hungUp = new HashSet<>();
        for (long cut : new long[] {0, 1, 100_000, 5_000_000, 17_563_000}) {
            for (byte[] request : List.of(v2, v4)) {
                try (HttpConnection connection = HttpConnection.open(osaka.port())) {
                    hungUp.add(connection.socket().getLocalPort());
                    connection.send(request);
                    HttpConnection.Head head = connection.readHead();
                    assertEquals(request == v2 ? v2Length : v4Length, head.contentLength());
                    assertEquals(cut, connection.discard(cut));
                    connection.abort();
                }
            }
        }
        assertEquals(0, ServerSockets.awaitClosed(osaka.port(), hungUp, Duration.ofSeconds(30)));
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
        assertEquals(
                v2Length,
                ok(SszBlobs.post(osaka, "/engine/v1/blobs/v2", SszBlobs.request(osaka.cycledHashes(128)))).length);
    }

    // ---- helpers

    private static BlobEntry entry(EngineServerFixture server, VersionedHash hash) {
        return server.server().pool().get(hash);
    }

    /** {@code count} hashes, the pool's cycled, every seventh unknown to the pool. */
    private static List<VersionedHash> withUnknowns(EngineServerFixture server, int count) {
        List<VersionedHash> hashes = new ArrayList<>(server.cycledHashes(count));
        for (int i = 3; i < count; i += 7) {
            hashes.set(i, VersionedHash.decode("0x01" + "%02x".formatted(i) + "ee".repeat(30)));
        }
        return hashes;
    }

    /**
     * 128 slot offsets: {@code first} for slot 0, {@code second} for 1 to 5, {@code third} for 6 to 64, {@code fourth}
     * for 65 to 127.
     */
    private static String slots(String first, String second, String third, String fourth) {
        return first + second.repeat(5) + third.repeat(59) + fourth.repeat(63);
    }

    /** Each V2/V3 entry against the JSON result's at its index: {@code null}, or its blob and proofs. */
    private static void assertSameAsJson(List<Entry> decoded, JsonNode json) {
        assertEquals(json.size(), decoded.size());
        for (int i = 0; i < decoded.size(); i++) {
            Entry entry = decoded.get(i);
            JsonNode expected = json.get(i);
            assertEquals(!expected.isNull(), entry.available(), "available " + i);
            assertArrayEquals(
                    expected.isNull() ? new byte[131_072] : bytes(expected.get("blob")), entry.blob(), "blob " + i);
            List<String> proofs = new ArrayList<>();
            if (!expected.isNull()) {
                expected.get("proofs").forEach(proof -> proofs.add(proof.asText()));
            }
            assertEquals(
                    proofs,
                    entry.proofs().stream().map(SszGetBlobsTest::data).collect(Collectors.toList()),
                    "proofs " + i);
        }
    }

    /**
     * Each V4 entry against the JSON result's: {@code null} ⇔ unavailable with every slot empty; else the JSON's cells
     * and proofs, in order, in the selected slots ({@code null} ⇔ empty), every other slot empty.
     */
    private static void assertV4SameAsJson(List<Entry> decoded, JsonNode json, int[] cells) {
        assertEquals(json.size(), decoded.size());
        for (int i = 0; i < decoded.size(); i++) {
            Entry entry = decoded.get(i);
            JsonNode expected = json.get(i);
            assertEquals(!expected.isNull(), entry.available(), "available " + i);
            assertEquals(128, entry.cells().size());
            assertEquals(128, entry.proofs().size());
            List<String> expectedCells = new ArrayList<>(java.util.Collections.nCopies(128, (String) null));
            List<String> expectedProofs = new ArrayList<>(java.util.Collections.nCopies(128, (String) null));
            for (int k = 0; !expected.isNull() && k < cells.length; k++) {
                JsonNode cell = expected.get("blob_cells").get(k);
                JsonNode proof = expected.get("proofs").get(k);
                expectedCells.set(cells[k], cell.isNull() ? null : cell.asText());
                expectedProofs.set(cells[k], proof.isNull() ? null : proof.asText());
            }
            assertEquals(
                    expectedCells,
                    entry.cells().stream().map(SszGetBlobsTest::data).collect(Collectors.toList()),
                    "cells " + i);
            assertEquals(
                    expectedProofs,
                    entry.proofs().stream().map(SszGetBlobsTest::data).collect(Collectors.toList()),
                    "proofs " + i);
        }
    }

    private static byte[] ok(HttpResponse<byte[]> response) {
        assertEquals(200, response.statusCode(), () -> text(response));
        assertEquals(
                "application/octet-stream",
                response.headers().firstValue("content-type").orElse(null));
        assertEquals(
                response.body().length,
                response.headers().firstValueAsLong("content-length").orElse(-1));
        return response.body();
    }

    private static void assertOctetStream(byte[] expected, HttpResponse<byte[]> response) {
        assertArrayEquals(expected, ok(response));
    }

    private static void assertProblem(HttpConnection connection, String path, byte[] body, int status, String json)
            throws Exception {
        connection.send(SszBlobs.rawPost(osaka.token(), path, body));
        HttpConnection.Head head = connection.readHead();
        assertEquals(status, head.status());
        assertTrue(head.text().contains("content-type: " + PROBLEM), head.text());
        assertEquals(json, new String(connection.readBody(head), StandardCharsets.UTF_8));
    }

    private static HttpResponse<byte[]> get(EngineServerFixture server, String path) {
        return server.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Authorization", "Bearer " + server.token())
                .GET()
                .build());
    }

    private static String data(byte[] bytes) {
        return bytes == null ? null : "0x" + HexFormat.of().formatHex(bytes);
    }

    private static byte[] bytes(JsonNode data) {
        return HexDecoder.decode(data.asText());
    }

    private static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits);
    }

    /** {@code parts} back to back: hex digits ({@code String}) or bytes. */
    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof String digits ? hex(digits) : (byte[]) part);
        }
        return out.toByteArray();
    }

    private static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
