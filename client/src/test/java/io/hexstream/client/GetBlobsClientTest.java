package io.hexstream.client;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.client.testing.CollectedEntries;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.Responses.Cells;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GetBlobsClient} against a hand-written HTTP server: a result written as the JSON and HTTP specs allow, not as
 * any one server writes it (whitespace, members in another order, members it does not know, escapes, chunked in pieces
 * of 1 to 64 bytes), gives the bytes it was written from, each request signed with a token java-jwt verifies; a
 * JSON-RPC error fails the call with its code and message; {@code null} results and entries are told; malformed bodies
 * and wrong shapes fail the call in one line naming the path and the byte; an SSZ route's problem document (RFC 7807,
 * written by Jackson) is one line of its status, title or type, and detail.
 */
class GetBlobsClientTest {
    private static final byte[] SECRET = secret();

    /**
     * Whitespace of every kind, the id first, a member of non-ASCII text and escapes after the result, entries proofs
     * first with a member of nested values, hex in uppercase with its {@code 0} and two digits escaped; chunked in
     * pieces of 1 to 64 bytes.
     */
    @Test
    void v2InAnotherFormInSmallChunksGivesItsBytes() throws Exception {
        Random random = new Random(32);
        List<Blob> blobs = List.of(Responses.blob(random, BlobSizes.CELLS_PER_EXT_BLOB), Responses.blob(random, 128));
        byte[] body = ("{\r\n\t\"id\" : 1 ,\n  \"result\" : [\n" + otherV2(blobs.get(0)) + " ,\n"
                        + otherV2(blobs.get(1))
                        + "\n ] , \"note\" : \"d\u00e9j\u00e0 vu \ud83d\ude00 \\\"quoted\\\" \\u00e9\" ,\n"
                        + " \"jsonrpc\" : \"2.0\"\n}\n")
                .getBytes(UTF_8);
        try (CannedHttpServer server = new CannedHttpServer(n -> CannedHttpServer.chunked(body, 64, n));
                GetBlobsClient client = client(server, false)) {
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome = client.call(call(2), got).get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(body.length, outcome.bodyBytes());
            for (int i = 0; i < blobs.size(); i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(Responses.concat(blobs.get(i).proofs()), got.proofs.get(i));
            }
            String token = server.heads()
                    .get(0)
                    .lines()
                    .filter(line -> line.startsWith("authorization: Bearer "))
                    .findFirst()
                    .orElseThrow()
                    .substring(22);
            JWT.require(Algorithm.HMAC256(SECRET)).build().verify(token);
        }
    }

    @Test
    void v2CompactProofsFirstWithContentLengthGivesItsBytes() throws Exception {
        Random random = new Random(33);
        List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
        List<Object> result = new ArrayList<>();
        for (Blob blob : blobs) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("proofs", blob.proofs().stream().map(Responses::hex).toList());
            entry.put("blob", Responses.hex(blob.blob()));
            result.add(entry);
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("jsonrpc", "2.0");
        response.put("result", result);
        response.put("id", 1);
        byte[] body = Responses.write(response);
        try (CannedHttpServer server =
                        new CannedHttpServer(n -> CannedHttpServer.contentLength(200, "application/json", body));
                GetBlobsClient client = client(server, false)) {
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome = client.call(call(2), got).get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(body.length, outcome.bodyBytes());
            for (int i = 0; i < blobs.size(); i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(Responses.concat(blobs.get(i).proofs()), got.proofs.get(i));
            }
        }
    }

    /** HTTP/1.1 over a Unix domain socket ({@code ipcPath}), without tokens: no {@code Authorization}. */
    @Test
    void overIpcWithoutTokens(@TempDir Path dir) throws Exception {
        Random random = new Random(35);
        List<Blob> blobs = List.of(Responses.blob(random, 128));
        byte[] body = Responses.response(1, Responses.blobEntries(blobs, false));
        Path socket = dir.resolve("engine.ipc");
        try (CannedHttpServer server = new CannedHttpServer(
                        socket, n -> CannedHttpServer.contentLength(200, "application/json", body));
                GetBlobsClient client = GetBlobsClient.builder(EndpointUrl.parse("http://localhost/"))
                        .ipcPath(socket)
                        .build()) {
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome = client.call(call(1), got).get(30, TimeUnit.SECONDS);

            assertEquals(1, outcome.available());
            assertArrayEquals(blobs.get(0).blob(), got.blobs.get(0));
            assertArrayEquals(Responses.concat(blobs.get(0).proofs()), got.proofs.get(0));
            String head = server.heads().get(0);
            assertTrue(head.startsWith("POST / HTTP/1.1\r\n"), head);
            assertTrue(head.toLowerCase(Locale.ROOT).contains("\r\nhost: localhost\r\n"), head);
            assertFalse(head.toLowerCase(Locale.ROOT).contains("authorization"), head);
        }
    }

    /** The error's message first, its {@code data} an object, the envelope's members after it, spaced. */
    @Test
    void jsonRpcErrorFailsTheCallWithItsCodeAndMessage() throws Exception {
        byte[] body = ("{ \"error\" : { \"message\" : \"Unsupported fork\", \"data\" : { \"x\" : [ 1 ] },"
                        + " \"code\" : -38005 } , \"id\" : 1 , \"jsonrpc\" : \"2.0\" }")
                .getBytes(US_ASCII);
        RpcErrorException rpc =
                assertInstanceOf(RpcErrorException.class, failure(CannedHttpServer.chunked(body, 16, 6), 1));

        assertEquals(-38005, rpc.code());
        assertEquals("Unsupported fork", rpc.rpcMessage());
        assertEquals("-38005 Unsupported fork", rpc.getMessage());
    }

    @Test
    void sszProblemIsOneLineOfItsStatusTitleOrTypeAndDetail() throws Exception {
        Map<String, Object> typed = new LinkedHashMap<>();
        typed.put("type", "https://example.org/problems/request-too-large");
        typed.put("status", 413);
        typed.put("extra", List.of(Map.of("title", "not this one"), List.of()));
        typed.put("detail", "129 versioned hashes,\nat most 128");
        Map<String, Object> titled = new LinkedHashMap<>();
        titled.put("detail", "no such route");
        titled.put("title", "Not Found Here");
        titled.put("type", "about:blank");
        List<byte[]> responses = List.of(
                CannedHttpServer.contentLength(413, "application/problem+json", Responses.write(typed)),
                CannedHttpServer.contentLength(404, "application/problem+json", Responses.write(titled)),
                CannedHttpServer.contentLength(503, "text/plain", "{\"title\": cut".getBytes(US_ASCII)));
        try (CannedHttpServer server = new CannedHttpServer(responses::get);
                GetBlobsClient client = client(server, true)) {
            assertEquals("HTTP 413 request-too-large: 129 versioned hashes, at most 128", sszFault(client));
            assertEquals("HTTP 404 Not Found Here: no such route", sszFault(client));
            assertEquals("HTTP 503 Service Unavailable: {\"title\": cut", sszFault(client));
        }
    }

    @Test
    void v1WithANullEntryMembersReversedAndEscapedHexGivesItsBytes() throws Exception {
        Random random = new Random(1);
        List<Blob> blobs = List.of(Responses.blob(random, 1), Responses.blob(random, 1));
        String body = "{ \"result\": [ " + v1(blobs.get(0), 0) + ", null ,\n" + v1(blobs.get(1), 1)
                + " ], \"jsonrpc\": \"2.0\", \"id\": 1.0 }";
        try (CannedHttpServer server =
                        new CannedHttpServer(n -> CannedHttpServer.chunked(body.getBytes(US_ASCII), 7, 2));
                GetBlobsClient client = client(server, false)) {
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome =
                    client.call(Responses.call(BlobsMethod.V1, 3, null), got).get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(List.of("blob 0", "missing 1", "blob 2"), got.told);
            for (int i = 0; i < blobs.size(); i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(blobs.get(i).proofs().get(0), got.proofs.get(i));
            }
        }
    }

    @Test
    void v4WithNullCellsGivesTheCellsAnswered() throws Exception {
        Random random = new Random(4);
        // Cells 0 and 70 asked; entry 2 lacks cell 70 (null, and its proof null).
        List<Cells> cells = List.of(Responses.cells(random, 2, 0), Responses.cells(random, 2, 0b10));
        List<Object> result = new ArrayList<>();
        result.add(null);
        result.addAll(Responses.cellEntries(cells));
        byte[] body = Responses.pretty(Map.of("id", 1, "jsonrpc", "2.0", "result", result));
        byte[] bitarray = new byte[CellIndices.BITARRAY_SIZE];
        bitarray[0] = 0x01;
        bitarray[70 / 8] = 1 << (70 % 8);
        try (CannedHttpServer server = new CannedHttpServer(n -> CannedHttpServer.chunked(body, 64, 3));
                GetBlobsClient client = client(server, false)) {
            CollectedEntries got = new CollectedEntries();

            BlobsOutcome outcome = client.call(Responses.call(BlobsMethod.V4, 3, bitarray), got)
                    .get(30, TimeUnit.SECONDS);

            assertEquals(2, outcome.available());
            assertEquals(List.of("missing 0", "cells 1 [0, 70]", "cells 2 [0]"), got.told);
            assertArrayEquals(Responses.concat(cells.get(0).cells()), got.blobs.get(0));
            assertArrayEquals(Responses.concat(cells.get(0).proofs()), got.proofs.get(0));
            assertArrayEquals(cells.get(1).cells().get(0), got.blobs.get(1));
            assertArrayEquals(cells.get(1).proofs().get(0), got.proofs.get(1));
        }
    }

    /**
     * Malformed JSON and wrong shapes fail the call with a {@link GetBlobsResponseException} of one line naming the
     * path and the byte, as the {@code InputStream} reader's; a body cut short, with the connection's end; another HTTP
     * status, in one line.
     */
    @Test
    void malformedResponsesFailTheCallInOneLine() throws Exception {
        Random random = new Random(5);
        List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
        String good = new String(Responses.response(1, Responses.blobEntries(blobs, false)), US_ASCII);
        String blob1 = Responses.hex(blobs.get(1).blob());
        String odd = good.replace(blob1, blob1.substring(0, blob1.length() - 1));
        int oddAt = odd.indexOf(blob1.substring(0, blob1.length() - 1)) + blob1.length() - 1;
        assertFault(contentLength(odd), 2, "result[1].blob: odd number of hex digits at byte " + grouped(oddAt));

        String proof5 = Responses.hex(blobs.get(1).proofs().get(5));
        String bad = good.replace(proof5, proof5.substring(0, 10) + 'g' + proof5.substring(11));
        assertFault(
                CannedHttpServer.chunked(bad.getBytes(US_ASCII), 64, 4),
                2,
                "result[1].proofs[5]: invalid hex character 'g' at byte " + grouped(bad.indexOf('g')));

        String short127 =
                good.replace(",\"" + Responses.hex(blobs.get(0).proofs().get(127)) + "\"", "");
        assertFault(
                contentLength(short127),
                2,
                "result[0].proofs: 127 proofs, expected 128 at byte " + grouped(short127.indexOf(']')));

        assertFault(
                contentLength(good),
                1,
                "result[1]: more than 1 entry (one per versioned hash asked) at byte "
                        + grouped(good.indexOf("},{") + 2));

        String otherId = new String(Responses.response(7, null), US_ASCII);
        assertFault(contentLength(otherId), 2, "id: not the request's id 1 at byte " + grouped(otherId.length() - 1));

        byte[] whole = contentLength(good);
        Throwable cut = failure(Arrays.copyOf(whole, whole.length * 3 / 4), 2);
        assertInstanceOf(ClosedChannelException.class, cut, String.valueOf(cut));

        byte[] unauthorized = ("HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 22\r\nConnection: close\r\n\r\niat is 61 s before now")
                .getBytes(US_ASCII);
        assertEquals(
                "HTTP 401 Unauthorized: iat is 61 s before now",
                assertInstanceOf(BadResponseException.class, failure(unauthorized, 2))
                        .getMessage());
    }

    @Test
    void aNullResultAndNoContentAreTheListenersNull() throws Exception {
        byte[] body = Responses.response(1, null);
        List<byte[]> responses = List.of(
                CannedHttpServer.contentLength(200, "application/json", body),
                CannedHttpServer.contentLength(204, "application/octet-stream", new byte[0]));
        CollectedEntries got = new CollectedEntries();
        try (CannedHttpServer server = new CannedHttpServer(responses::get)) {
            // One after the other: the canned server answers one connection at a time.
            try (GetBlobsClient json = client(server, false)) {
                assertEquals(
                        0, json.call(call(2), got).get(30, TimeUnit.SECONDS).available());
            }
            try (GetBlobsClient ssz = client(server, true)) {
                assertEquals(0, ssz.call(call(2), got).get(30, TimeUnit.SECONDS).available());
            }
        }

        assertEquals(List.of("null", "null"), got.told);
    }

    @Test
    void builderWithoutTokensIsRefused() {
        GetBlobsClient.Builder builder = GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:1"));

        IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);

        assertEquals("a GetBlobsClient needs its JWT secret or tokens", e.getMessage());
    }

    private static byte[] secret() {
        byte[] secret = new byte[JwtSigner.SECRET_SIZE];
        for (int i = 0; i < secret.length; i++) {
            secret[i] = (byte) (i * 7 + 1);
        }
        return secret;
    }

    private static String sszFault(GetBlobsClient client) throws Exception {
        ExecutionException e = assertThrows(
                ExecutionException.class,
                () -> client.call(call(1), new CollectedEntries()).get(30, TimeUnit.SECONDS));
        return assertInstanceOf(BadResponseException.class, e.getCause()).getMessage();
    }

    private static GetBlobsClient client(CannedHttpServer server, boolean ssz) {
        return GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:" + server.port()))
                .jwtSecret(SECRET)
                .ssz(ssz)
                .build();
    }

    private static byte[] contentLength(String body) {
        return CannedHttpServer.contentLength(200, "application/json", body.getBytes(US_ASCII));
    }

    /** The call of {@code hashes} answered by {@code response} fails with {@code fault}, its offset in the body. */
    private static void assertFault(byte[] response, int hashes, String fault) throws Exception {
        GetBlobsResponseException e = assertInstanceOf(GetBlobsResponseException.class, failure(response, hashes));
        assertEquals(fault, e.getMessage());
        assertEquals(fault.substring(fault.lastIndexOf(" at byte ") + 9), grouped(e.offset()));
    }

    /** What fails the call of {@code hashes} answered by {@code response}. */
    private static Throwable failure(byte[] response, int hashes) throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response);
                GetBlobsClient client = client(server, false)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> client.call(call(hashes), new CollectedEntries()).get(30, TimeUnit.SECONDS));
            return e.getCause();
        }
    }

    /** {@code BlobAndProofV2}, proofs first, a member of nested values, every other proof in {@link #otherHex}. */
    private static String otherV2(Blob blob) {
        StringBuilder proofs = new StringBuilder("[");
        for (int k = 0; k < blob.proofs().size(); k++) {
            byte[] proof = blob.proofs().get(k);
            proofs.append(k == 0 ? "" : " ,\n ").append(k % 2 == 1 ? otherHex(proof) : quoted(proof));
        }
        return "    {\n      \"proofs\" : " + proofs + "],\n"
                + "      \"extra\" : { \"a\" : [ 1, -2.5e+3, true, false, null, \"x\\\"y\\\\z\" ], \"b\" : { } },\n"
                + "      \"blob\" :\t" + otherHex(blob.blob()) + "\n    }";
    }

    private static String quoted(byte[] bytes) {
        return "\"" + Responses.hex(bytes) + "\"";
    }

    /** {@code BlobAndProofV1}, members reversed, one not known, uppercase hex with two digits and the 0 escaped. */
    private static String v1(Blob blob, int index) {
        return "{ \"proof\" : " + otherHex(blob.proofs().get(0)) + ", \"index\": " + index + ", \"blob\" : "
                + otherHex(blob.blob()) + " }";
    }

    private static String otherHex(byte[] bytes) {
        String digits = Responses.hex(bytes).substring(2).toUpperCase(Locale.ROOT);
        int middle = digits.length() / 2;
        return "\"\\u0030x" + digits.substring(0, middle) + escaped(digits.charAt(middle))
                + escaped(digits.charAt(middle + 1)) + digits.substring(middle + 2) + "\"";
    }

    private static String escaped(char c) {
        return String.format(Locale.ROOT, "\\u%04x", (int) c);
    }

    private static String grouped(long offset) {
        return String.format(Locale.ROOT, "%,d", offset);
    }

    private static GetBlobsCall call(int hashes) {
        return Responses.call(BlobsMethod.V2, hashes, null);
    }
}
