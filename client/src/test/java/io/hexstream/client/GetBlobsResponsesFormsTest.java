package io.hexstream.client;

import static io.hexstream.client.testing.Entries.assertBlobs;
import static io.hexstream.client.testing.Entries.assertCells;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.Responses.Cells;
import io.hexstream.client.testing.SplitStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Responses as other servers write them, read to the bytes they were made from: pretty-printed, members in another
 * order, members the reader does not know, whitespace between every token, JSON escapes in names and hex, digits of
 * either case; the execution-apis example of getBlobsV4; {@code null} results and entries; JSON-RPC errors.
 */
class GetBlobsResponsesFormsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void prettyPrintedResultFirstMembersReorderedAndMembersTheReaderDoesNotKnow() throws IOException {
        Random random = new Random(1);
        List<Blob> blobs = new ArrayList<>();
        blobs.add(Responses.blob(random, 128));
        blobs.add(null);
        blobs.add(Responses.blob(random, 128));
        List<Object> result = new ArrayList<>();
        for (Blob b : blobs) {
            if (b == null) {
                result.add(null);
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("proofs", b.proofs().stream().map(Responses::hex).toList());
            entry.put("index", 7);
            entry.put("meta", Map.of("a", List.of(1, -2.5e-3, true, Map.of("b", "0xzz")), "c", "é😀"));
            entry.put("blob", Responses.hex(b.blob()));
            entry.put("blob_cells", List.of("not read by V3"));
            result.add(entry);
        }
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("result", result);
        response.put("id", "req-7");
        response.put("extra", Map.of("nested", List.of(List.of(List.of()))));
        response.put("jsonrpc", "2.0");
        byte[] body = Responses.pretty(response);
        assertBlobs(blobs, GetBlobsResponses.readV3(SplitStream.of(body, 13), 3, Blob::new), "pretty");
    }

    @Test
    void whitespaceOfEveryKindBetweenEveryTwoTokens() throws IOException {
        Random random = new Random(2);
        List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
        String compact = new String(Responses.response(9, Responses.blobEntries(blobs, false)), UTF_8);
        byte[] body = ("\r\n " + spaced(compact, random) + " \t\n").getBytes(UTF_8);
        assertBlobs(blobs, GetBlobsResponses.readV2(SplitStream.of(body, 31), 2, Blob::new), "spaced");

        List<Cells> cells = List.of(Responses.cells(random, 3, 0b100));
        String v4 = new String(Responses.response(9, Responses.cellEntries(cells)), UTF_8);
        byte[] body4 = spaced(v4, random).getBytes(UTF_8);
        assertCells(cells, GetBlobsResponses.readV4(new ByteArrayInputStream(body4), 1, Cells::new), "spaced V4");
    }

    @Test
    void escapesInNamesHexAndOtherStrings() throws IOException {
        Random random = new Random(3);
        Blob blob = Responses.blob(random, 1);
        String body = "{\"\\u006Asonrpc\":\"2\\u002e0\",\"id\":\"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\","
                + "\"note\":\"tab\\tq\\\"\\\\\\/\\b\\f\\n\\r\\u00e9 é 😀\",\"re\\u0073ult\":[{\"\\u0062lob\":\""
                + escaped(Responses.hex(blob.blob()), random) + "\",\"pro\\u006Ff\":\"\\u0030\\u0078"
                + escaped(Responses.hex(blob.proofs().get(0)).substring(2), random) + "\"}]}";
        assertBlobs(
                List.of(blob),
                GetBlobsResponses.readV1(
                        SplitStream.of(body.getBytes(UTF_8), 5), 1, (b, proof) -> new Blob(b, List.of(proof))),
                "escaped");
    }

    @Test
    void hexDigitsOfEitherCase() throws IOException {
        Random random = new Random(4);
        Blob blob = Responses.blob(random, 128);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("blob", "0x" + HexFormat.of().withUpperCase().formatHex(blob.blob()));
        entry.put(
                "proofs",
                blob.proofs().stream()
                        .map(p -> mixedCase(Responses.hex(p), random))
                        .toList());
        byte[] body = Responses.response(1, List.of(entry));
        assertBlobs(List.of(blob), GetBlobsResponses.readV2(new ByteArrayInputStream(body), 1, Blob::new), "cases");
    }

    /**
     * The example of {@code engine_getBlobsV4} in execution-apis {@code src/engine/openrpc/methods/blob.yaml} (commit
     * 033ca6e6): three hashes, cells 0 and 1 asked; the second blob lacks cell 1, the third is missing. The expected
     * bytes are Jackson's reading of the same file, decoded by {@link HexFormat}.
     */
    @Test
    void theSpecsGetBlobsV4Example() throws IOException {
        JsonNode result;
        try (InputStream in = example()) {
            result = MAPPER.readTree(in).get("result");
        }
        List<Cells> expected = new ArrayList<>();
        for (JsonNode entry : result) {
            expected.add(entry.isNull() ? null : new Cells(hexes(entry.get("blob_cells")), hexes(entry.get("proofs"))));
        }
        List<Cells> read;
        try (InputStream in = example()) {
            read = GetBlobsResponses.readV4(in, 3, Cells::new);
        }
        assertCells(expected, read, "the spec's example");
        assertEquals(2, read.get(1).cells().size());
        assertNull(read.get(1).cells().get(1));
        assertNull(read.get(1).proofs().get(1));
        assertNull(read.get(2));
    }

    @Test
    void aNullResultOfEachVersion() throws IOException {
        byte[] body = "{\"result\" : null ,\"jsonrpc\":\"2.0\",\"id\":null}".getBytes(UTF_8);
        assertNull(GetBlobsResponses.readV1(new ByteArrayInputStream(body), 3, (b, p) -> b));
        assertNull(GetBlobsResponses.readV2(new ByteArrayInputStream(body), 3, (b, p) -> b));
        assertNull(GetBlobsResponses.readV3(new ByteArrayInputStream(body), 3, (b, p) -> b));
        assertNull(GetBlobsResponses.readV4(new ByteArrayInputStream(body), 3, (c, p) -> c));
    }

    @Test
    void nullEntriesAreKeptWhereTheMethodHasThem() throws IOException {
        Random random = new Random(5);
        List<Blob> v1 = new ArrayList<>();
        v1.add(null);
        v1.add(Responses.blob(random, 1));
        v1.add(null);
        byte[] body1 = Responses.response(1, Responses.blobEntries(v1, true));
        assertBlobs(
                v1,
                GetBlobsResponses.readV1(new ByteArrayInputStream(body1), 3, (b, p) -> new Blob(b, List.of(p))),
                "V1");
        List<Cells> v4 = new ArrayList<>();
        v4.add(null);
        v4.add(null);
        byte[] body4 = Responses.response(1, Responses.cellEntries(v4));
        assertCells(v4, GetBlobsResponses.readV4(new ByteArrayInputStream(body4), 2, Cells::new), "V4");
    }

    @Test
    void anEmptyResultForNoHashes() throws IOException {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}".getBytes(UTF_8);
        assertEquals(List.of(), GetBlobsResponses.readV2(new ByteArrayInputStream(body), 0, Blob::new));
    }

    @Test
    void anErrorNullBesideAResultIsNoError() throws IOException {
        byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":null,\"result\":[]}".getBytes(UTF_8);
        assertEquals(List.of(), GetBlobsResponses.readV3(new ByteArrayInputStream(body), 0, Blob::new));
    }

    @Test
    void jsonRpcErrorsOfEachVersion() {
        String compact = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-38004,\"message\":\"Too large request\"}}";
        for (int version = 1; version <= 4; version++) {
            RpcErrorException e = assertThrows(RpcErrorException.class, () -> readAny(compact, 200));
            assertEquals(-38004, e.code());
            assertEquals("Too large request", e.rpcMessage());
            assertEquals("-38004 Too large request", e.getMessage());
        }
        String reordered = "{ \"error\" : { \"data\" : {\"why\":[\"fork\", 1]}, \"message\" : \"Unsupported fork "
                + "\\u00e9\\n\\\"x\\\"\", \"code\" : -3.8005e4 } , \"id\" : \"7\" , \"jsonrpc\" : \"2.0\" }\n";
        RpcErrorException e = assertThrows(RpcErrorException.class, () -> readAny(reordered, 1));
        assertEquals(-38005, e.code());
        assertEquals("Unsupported fork é\n\"x\"", e.rpcMessage());
    }

    // ---------------------------------------------------------------- helpers

    private static void readAny(String body, int hashCount) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        GetBlobsResponses.readV1(SplitStream.of(bytes, 3), hashCount, (b, p) -> b);
        GetBlobsResponses.readV2(SplitStream.of(bytes, 3), hashCount, (b, p) -> b);
        GetBlobsResponses.readV3(SplitStream.of(bytes, 3), hashCount, (b, p) -> b);
        GetBlobsResponses.readV4(SplitStream.of(bytes, 3), hashCount, (c, p) -> c);
    }

    /** {@code json} with random JSON whitespace after every structural character outside strings. */
    private static String spaced(String json, Random random) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        boolean escape = false;
        for (char c : json.toCharArray()) {
            out.append(c);
            if (inString) {
                inString = escape || c != '"';
                escape = !escape && c == '\\';
            } else if (c == '"') {
                inString = true;
            } else if ("{}[],:".indexOf(c) >= 0) {
                for (int n = random.nextInt(4); n > 0; n--) {
                    out.append(" \t\r\n".charAt(random.nextInt(4)));
                }
            }
        }
        return out.toString();
    }

    /** Hex text with a random third of its characters as {@code \}{@code uXXXX} escapes, of either case. */
    private static String escaped(String hex, Random random) {
        StringBuilder out = new StringBuilder();
        for (char c : hex.toCharArray()) {
            if (random.nextInt(3) == 0) {
                String code = String.format("\\u%04x", (int) c);
                out.append(random.nextBoolean() ? code : code.toUpperCase().replace("\\U", "\\u"));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Hex text whose digits after {@code 0x} are of random case. */
    private static String mixedCase(String hex, Random random) {
        StringBuilder out = new StringBuilder("0x");
        for (char c : hex.substring(2).toCharArray()) {
            out.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
        }
        return out.toString();
    }

    private static List<byte[]> hexes(JsonNode array) {
        List<byte[]> values = new ArrayList<>();
        for (JsonNode value : array) {
            values.add(
                    value.isNull()
                            ? null
                            : HexFormat.of().parseHex(value.asText().substring(2)));
        }
        return values;
    }

    private static InputStream example() {
        return GetBlobsResponsesFormsTest.class.getResourceAsStream("engine_getBlobsV4-example.json");
    }
}
