package io.hexstream.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.ServerProcess.Run;
import io.hexstream.server.testing.TestBlobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --out} against a hand-written HTTP server whose responses are written as the JSON and HTTP specs allow,
 * not as the example server writes them: other whitespace, member order, members the probe does not know,
 * {@code \}{@code u} escapes and uppercase digits in the hex, non-ASCII text, chunked bodies in chunks of 1 to 64 bytes
 * with extensions and trailers. Each gives the same files, the bytes of the blobs it was built from (c-kzg's, generated
 * apart from any server). Malformed responses (odd and bad digits, a body cut short, a JSON-RPC error, HTTP 401, 127
 * cell proofs) give exit 1, their one line on stderr, and leave no file, though the entries before the fault were
 * written to temporary files. The client's own reading of these forms and faults is {@code GetBlobsClientTest}'s, in
 * the client module.
 */
class ProbeResponseFormsTest {
    private static final VersionedHash UNKNOWN = VersionedHash.wrap(new byte[32]);

    private final List<BlobEntry> entries = TestBlobs.first(2);
    private final List<VersionedHash> hashes = entries.stream()
            .map(e -> VersionedHash.ofCommitment(e.commitment()))
            .toList();

    @Test
    void v2WrittenAnotherWayInTinyChunksGivesTheSameFiles(@TempDir Path dir) throws Exception {
        String body = "{\r\n\t\"id\" : 1 ,\n  \"result\" : [\n" + otherV2(0) + " ,\n" + otherV2(1)
                + "\n ] , \"note\" : \"d\u00e9j\u00e0 vu \ud83d\ude00 \\\"quoted\\\" \\u00e9\" ,\n"
                + " \"jsonrpc\" : \"2.0\"\n}\n";
        Run run = probeAgainst(
                dir,
                CannedHttpServer.chunked(body.getBytes(UTF_8), 64, 1),
                hashes,
                "--method",
                "engine_getBlobsV2",
                "--verify");
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV2", 2, 2, body.getBytes(UTF_8).length);
        assertBlobFiles(dir.resolve("out"), false);
    }

    @Test
    void v1WithANullEntryInSmallChunksGivesTheSameFiles(@TempDir Path dir) throws Exception {
        String body = "{ \"result\": [ " + v1(0) + ", null ,\n" + v1(1) + " ], \"jsonrpc\": \"2.0\", \"id\": 1.0 }";
        Run run = probeAgainst(
                dir,
                CannedHttpServer.chunked(body.getBytes(US_ASCII), 7, 2),
                List.of(hashes.get(0), UNKNOWN, hashes.get(1)),
                "--method",
                "engine_getBlobsV1",
                "--verify");
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV1", 2, 3, body.length());
        assertBlobFiles(dir.resolve("out"), true);
    }

    @Test
    void v4WithNullCellsGivesTheCellsAnswered(@TempDir Path dir) throws Exception {
        byte[][] cells = {
            CellFixtures.allCells(entries.get(0).blob()),
            CellFixtures.allCells(entries.get(1).blob())
        };
        // Entry 1 lacks cell 70: null, and its proof null.
        String body = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":[null,{\"proofs\":[" + quoted(proof(0, 0))
                + ",\n" + quoted(proof(0, 70)) + "],\"blob_cells\":[" + quoted(cell(cells[0], 0)) + ","
                + quoted(cell(cells[0], 70))
                + "],\"x\":[[]]},{\"blob_cells\":[" + quoted(cell(cells[1], 0)) + ", null ], \"proofs\" : [ "
                + quoted(proof(1, 0)) + " , null ] } ] }";
        Path out = dir.resolve("out");
        Run run = probeAgainst(
                dir,
                CannedHttpServer.chunked(body.getBytes(US_ASCII), 64, 3),
                List.of(UNKNOWN, hashes.get(0), hashes.get(1)),
                "--method",
                "engine_getBlobsV4",
                "--cells",
                CellFixtures.bitarray(0, 70));
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV4", 2, 3, body.length());
        String first = name(0);
        String second = name(1);
        assertEquals(
                List.of(
                                first + ".cell-0",
                                first + ".cell-70",
                                first + ".proof-0",
                                first + ".proof-70",
                                second + ".cell-0",
                                second + ".proof-0")
                        .stream()
                        .sorted()
                        .toList(),
                ProbeRuns.files(out));
        assertArrayEquals(cell(cells[0], 70), Files.readAllBytes(out.resolve(first + ".cell-70")));
        assertArrayEquals(proof(0, 70), Files.readAllBytes(out.resolve(first + ".proof-70")));
        assertArrayEquals(cell(cells[1], 0), Files.readAllBytes(out.resolve(second + ".cell-0")));
        assertArrayEquals(proof(1, 0), Files.readAllBytes(out.resolve(second + ".proof-0")));
    }

    @Test
    void malformedResponsesAreOneLineAndLeaveNoFile(@TempDir Path dir) throws Exception {
        String good = compactV2(-1, -1);
        String blob1 = Hex.encodeToString(entries.get(1).blob(), true);
        String odd = good.replace(blob1, blob1.substring(0, blob1.length() - 1));
        assertMalformed(
                dir,
                "odd",
                contentLength(odd),
                "result[1].blob: odd number of hex digits at byte "
                        + grouped(odd.indexOf(blob1.substring(0, blob1.length() - 1)) + blob1.length() - 1));

        String bad = compactV2(1, 5);
        assertMalformed(
                dir,
                "bad",
                CannedHttpServer.chunked(bad.getBytes(US_ASCII), 64, 4),
                "result[1].proofs[5]: invalid hex character 'g' at byte " + grouped(bad.indexOf('g')));

        byte[] whole = contentLength(good);
        assertMalformed(
                dir,
                "truncated",
                Arrays.copyOf(whole, whole.length * 3 / 4),
                "connection closed before the response ended");

        assertMalformed(
                dir,
                "error",
                contentLength("{ \"error\" : { \"message\" : \"Unsupported fork\", \"data\" :"
                        + " { \"x\" : [ 1 ] }, \"code\" : -38005 } , \"id\" : 1 , \"jsonrpc\" : \"2.0\" }"),
                "-38005 Unsupported fork");

        assertMalformed(
                dir,
                "unauthorized",
                ("HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\n"
                                + "Content-Length: 22\r\nConnection: close\r\n\r\niat is 61 s before now")
                        .getBytes(US_ASCII),
                "HTTP 401 Unauthorized: iat is 61 s before now");

        String short127 = good.replace("," + quoted(proof(0, 127)), "");
        assertMalformed(dir, "127", contentLength(short127), "result[0].proofs: 127 elements, expected 128");
    }

    // ---------------------------------------------------------------- responses

    /** Entry {@code i} as {@code BlobAndProofV2}, written unlike the example server: see {@link #otherHex}. */
    private String otherV2(int i) {
        return "    {\n      \"proofs\" : " + proofArray(entries.get(i).cellProofs(), true) + ",\n"
                + "      \"extra\" : { \"a\" : [ 1, -2.5e+3, true, false, null, \"x\\\"y\\\\z\" ], \"b\" : { } },\n"
                + "      \"blob\" :\t" + otherHex(entries.get(i).blob()) + "\n    }";
    }

    /** {@code BlobAndProofV1} of entry {@code i}, members reversed and one not known. */
    private String v1(int i) {
        return "{ \"proof\" : " + otherHex(entries.get(i).blobProof()) + ", \"index\": " + i + ", \"blob\" : "
                + quoted(entries.get(i).blob()) + " }";
    }

    /** The hex of {@code bytes} with uppercase digits, its prefix and two digits written as escapes. */
    private static String otherHex(byte[] bytes) {
        String digits = Hex.encodeToString(bytes, false).toUpperCase(Locale.ROOT);
        int middle = digits.length() / 2;
        return "\"\\u0030x" + digits.substring(0, middle) + escaped(digits.charAt(middle))
                + escaped(digits.charAt(middle + 1)) + digits.substring(middle + 2) + "\"";
    }

    private static String escaped(char c) {
        return String.format(Locale.ROOT, "\\u%04x", (int) c);
    }

    private static String proofArray(byte[] proofs, boolean other) {
        StringBuilder array = new StringBuilder("[");
        for (int k = 0; k < BlobSizes.CELLS_PER_EXT_BLOB; k++) {
            byte[] proof = Arrays.copyOfRange(proofs, k * BlobSizes.PROOF_SIZE, (k + 1) * BlobSizes.PROOF_SIZE);
            array.append(k == 0 ? "" : other ? " ,\n " : ",")
                    .append(other && k % 2 == 1 ? otherHex(proof) : quoted(proof));
        }
        return array.append(']').toString();
    }

    /** The example server's layout of the two entries, with {@code 'g'} in proof {@code proof} of {@code entry}. */
    private String compactV2(int entry, int proof) {
        StringBuilder body = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[");
        for (int i = 0; i < 2; i++) {
            String proofs = proofArray(entries.get(i).cellProofs(), false);
            if (i == entry) {
                int at = proofs.indexOf("\"0x", 0);
                for (int k = 0; k < proof; k++) {
                    at = proofs.indexOf("\"0x", at + 1);
                }
                proofs = proofs.substring(0, at + 10) + 'g' + proofs.substring(at + 11);
            }
            body.append(i == 0 ? "" : ",")
                    .append("{\"blob\":")
                    .append(quoted(entries.get(i).blob()))
                    .append(",\"proofs\":")
                    .append(proofs)
                    .append('}');
        }
        return body.append("]}").toString();
    }

    private static String quoted(byte[] bytes) {
        return "\"" + Hex.encodeToString(bytes, true) + "\"";
    }

    private static byte[] cell(byte[] cells, int index) {
        return Arrays.copyOfRange(cells, index * BlobSizes.CELL_SIZE, (index + 1) * BlobSizes.CELL_SIZE);
    }

    private byte[] proof(int entry, int cell) {
        return Arrays.copyOfRange(
                entries.get(entry).cellProofs(), cell * BlobSizes.PROOF_SIZE, (cell + 1) * BlobSizes.PROOF_SIZE);
    }

    private static byte[] contentLength(String body) {
        byte[] bytes = body.getBytes(UTF_8);
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                        + "\r\n\r\n")
                .getBytes(US_ASCII);
        byte[] response = Arrays.copyOf(head, head.length + bytes.length);
        System.arraycopy(bytes, 0, response, head.length, bytes.length);
        return response;
    }

    // ---------------------------------------------------------------- running

    private Run probeAgainst(Path dir, byte[] response, List<VersionedHash> asked, String... options) throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response)) {
            return ProbeRuns.probe(
                    "http://127.0.0.1:" + server.port() + "/engine?x=1",
                    dir,
                    asked,
                    ProbeRuns.concat(options, "--out", dir.resolve("out").toString()));
        }
    }

    private void assertMalformed(Path dir, String name, byte[] response, String fault) throws Exception {
        Path sub = Files.createDirectories(dir.resolve(name));
        Run run = probeAgainst(sub, response, hashes, "--method", "engine_getBlobsV2");
        assertEquals(new Run(1, "", "engine_getBlobsV2: " + fault + "\n"), run, name);
        assertEquals(List.of(), ProbeRuns.files(sub.resolve("out")), name);
    }

    private void assertBlobFiles(Path out, boolean v1) throws IOException {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            BlobEntry entry = entries.get(i);
            assertArrayEquals(entry.blob(), Files.readAllBytes(out.resolve(name(i) + ".blob")));
            assertArrayEquals(
                    v1 ? entry.blobProof() : entry.cellProofs(), Files.readAllBytes(out.resolve(name(i) + ".proofs")));
            expected.addAll(List.of(name(i) + ".blob", name(i) + ".proofs"));
        }
        assertEquals(expected.stream().sorted().toList(), ProbeRuns.files(out));
    }

    private String name(int i) {
        return hashes.get(i).toString().substring(2);
    }

    private static String grouped(long offset) {
        return String.format(Locale.ROOT, "%,d", offset);
    }
}
