package io.hexstream.server.cli;

import static io.hexstream.server.cli.ProbeRuns.assertBlobFiles;
import static io.hexstream.server.cli.ProbeRuns.assertLine;
import static io.hexstream.server.cli.ProbeRuns.concat;
import static io.hexstream.server.cli.ProbeRuns.files;
import static io.hexstream.server.cli.ProbeRuns.probe;
import static io.hexstream.server.cli.ProbeRuns.run;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe} against the example server: V1 to V4, the files of {@code --out} compared byte for byte with the pool's
 * entries (and c-kzg's cells), {@code --verify} passing, the line per request, the JSON-RPC error and HTTP 401 lines,
 * the server's reply cut short after its first entry (no file left), the usage errors. How the client reads replies
 * written otherwise, and their faults, is the client module's tests' ({@code GetBlobsClientTest}).
 */
class ProbeTest {
    private static final VersionedHash UNKNOWN = VersionedHash.wrap(new byte[32]);

    @Test
    void v2WritesEachBlobAndItsCellProofsAndVerifies(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.hashes();
            Run run = probe(
                    server,
                    dir,
                    hashes,
                    "--method",
                    "engine_getBlobsV2",
                    "--verify",
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(0, run.exitCode(), run.stderr());
            assertEquals("", run.stderr());
            assertLine(run.stdout(), "engine_getBlobsV2", 6, 6, bodyLength(server, "engine_getBlobsV2", hashes));
            assertBlobFiles(server, dir.resolve("out"), hashes, false);
        }
    }

    /** Three requests pipelined on HTTP/1.1, twice: six lines, each verified, the files the pool's. */
    @Test
    void concurrencyPipelinesRequestsAndVerifiesEach(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.hashes();
            Run run = probe(
                    server,
                    dir,
                    hashes,
                    "--concurrency",
                    "3",
                    "--repeat",
                    "2",
                    "--verify",
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(0, run.exitCode(), run.stderr());
            assertEquals("", run.stderr());
            String[] lines = run.stdout().split("\n");
            assertEquals(8, lines.length, run.stdout()); // six requests, then the p50 and the p99
            long length = bodyLength(server, "engine_getBlobsV2", hashes);
            for (int i = 0; i < 6; i++) {
                Matcher line = assertLine(lines[i] + "\n", "engine_getBlobsV2", 6, 6, length);
                assertEquals(Integer.toString(i + 1), line.group(2));
            }
            assertTrue(lines[6].startsWith("engine_getBlobsV2 p50 of 6: "), lines[6]);
            assertBlobFiles(server, dir.resolve("out"), hashes, false);
        }
    }

    @Test
    void v1WritesEachBlobAndItsBlobProofAndVerifies(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.PRAGUE)) {
            List<VersionedHash> hashes = new ArrayList<>(server.hashes());
            hashes.add(2, UNKNOWN);
            Run run = probe(
                    server,
                    dir,
                    hashes,
                    "--method",
                    "engine_getBlobsV1",
                    "--verify",
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(0, run.exitCode(), run.stderr());
            assertLine(run.stdout(), "engine_getBlobsV1", 6, 7, bodyLength(server, "engine_getBlobsV1", hashes));
            assertBlobFiles(server, dir.resolve("out"), server.hashes(), true);
        }
    }

    @Test
    void v3LeavesOutTheMissingAndRepeatsWithPercentiles(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes =
                    List.of(server.hashes().get(4), UNKNOWN, server.hashes().get(1));
            Run run = probe(
                    server,
                    dir,
                    hashes,
                    "--method",
                    "engine_getBlobsV3",
                    "--repeat",
                    "3",
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(0, run.exitCode(), run.stderr());
            String[] lines = run.stdout().split("\n");
            assertEquals(5, lines.length, run.stdout());
            long length = bodyLength(server, "engine_getBlobsV3", hashes);
            for (int r = 0; r < 3; r++) {
                Matcher line = assertLine(lines[r] + "\n", "engine_getBlobsV3", 2, 3, -1);
                assertEquals(Integer.toString(r + 1), line.group(2));
                // The ids 1 to 3 are one digit each: the same length every time.
                assertEquals(length, Long.parseLong(line.group(5).replace(",", "")));
            }
            assertTrue(
                    lines[3].matches("engine_getBlobsV3 p50 of 3: first byte \\d+\\.\\d\\d ms,"
                            + " first blob \\d+\\.\\d\\d ms, last byte \\d+\\.\\d\\d ms"),
                    lines[3]);
            assertTrue(lines[4].startsWith("engine_getBlobsV3 p99 of 3: first byte "), lines[4]);
            assertBlobFiles(server, dir.resolve("out"), List.of(hashes.get(0), hashes.get(2)), false);
        }
    }

    @Test
    void v4WritesEachCellAndItsProof(@TempDir Path dir) throws Exception {
        int[] cells = {0, 5, 63, 64, 100, 127};
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes =
                    List.of(server.hashes().get(3), UNKNOWN, server.hashes().get(0));
            Path out = dir.resolve("out");
            Run run = probe(
                    server,
                    dir,
                    hashes,
                    "--method",
                    "engine_getBlobsV4",
                    "--cells",
                    CellFixtures.bitarray(cells),
                    "--out",
                    out.toString());
            assertEquals(0, run.exitCode(), run.stderr());
            assertLine(run.stdout(), "engine_getBlobsV4", 2, 3, -1);
            List<String> expected = new ArrayList<>();
            for (VersionedHash hash : List.of(hashes.get(0), hashes.get(2))) {
                BlobEntry entry = server.server().pool().get(hash);
                byte[] all = CellFixtures.allCells(entry.blob());
                String name = hash.toString().substring(2);
                for (int cell : cells) {
                    assertArrayEquals(
                            Arrays.copyOfRange(all, cell * BlobSizes.CELL_SIZE, (cell + 1) * BlobSizes.CELL_SIZE),
                            Files.readAllBytes(out.resolve(name + ".cell-" + cell)));
                    assertArrayEquals(
                            Arrays.copyOfRange(
                                    entry.cellProofs(), cell * BlobSizes.PROOF_SIZE, (cell + 1) * BlobSizes.PROOF_SIZE),
                            Files.readAllBytes(out.resolve(name + ".proof-" + cell)));
                    expected.add(name + ".cell-" + cell);
                    expected.add(name + ".proof-" + cell);
                }
            }
            assertEquals(expected.stream().sorted().toList(), files(out));
        }
    }

    @Test
    void aJsonRpcErrorIsOneLineAndLeavesNoFile(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            Run run = probe(
                    server,
                    dir,
                    server.hashes(),
                    "--method",
                    "engine_getBlobsV1",
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(new Run(1, "", "engine_getBlobsV1: -38005 Unsupported fork: serving osaka\n"), run);
            assertEquals(List.of(), files(dir.resolve("out")));
        }
    }

    /**
     * The server's own reply, served cut short after its first entry (which the probe has written to a temporary file):
     * one line, exit 1, no file left.
     */
    @Test
    void aReplyCutShortAfterItsFirstEntryIsOneLineAndLeavesNoFile(@TempDir Path dir) throws Exception {
        byte[] reply;
        List<VersionedHash> hashes;
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            hashes = server.hashes();
            reply = server.post(EngineClient.request(1, "engine_getBlobsV2", EngineClient.hashParams(hashes)))
                    .body();
        }
        int secondEntry = new String(reply, US_ASCII).indexOf("},{") + 2;
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + reply.length
                        + "\r\n\r\n")
                .getBytes(US_ASCII);
        byte[] cut = Arrays.copyOf(head, head.length + secondEntry + 1000);
        System.arraycopy(reply, 0, cut, head.length, secondEntry + 1000);
        Run run;
        try (CannedHttpServer server = new CannedHttpServer(n -> cut)) {
            run = probe(
                    "http://127.0.0.1:" + server.port(),
                    dir,
                    hashes,
                    "--method",
                    "engine_getBlobsV2",
                    "--out",
                    dir.resolve("out").toString());
        }
        assertEquals(new Run(1, "", "engine_getBlobsV2: connection closed before the response ended\n"), run);
        assertEquals(List.of(), files(dir.resolve("out")));
    }

    @Test
    void aWrongSecretIsHttp401InOneLine(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            Path secret = Files.writeString(dir.resolve("other.hex"), "0x" + "43".repeat(32));
            Run run = run(
                    "probe",
                    "--url",
                    "http://127.0.0.1:" + server.port(),
                    "--jwt-secret",
                    secret.toString(),
                    "--hash",
                    server.hashes().get(0).toString(),
                    "--out",
                    dir.resolve("out").toString());
            assertEquals(
                    new Run(
                            1,
                            "",
                            "engine_getBlobsV2: HTTP 401 Unauthorized: wrong signature: the token is not signed with"
                                    + " this server's secret\n"),
                    run);
            assertEquals(List.of(), files(dir.resolve("out")));
        }
    }

    @Test
    void optionsThatDoNotGoTogetherAreUsageErrors(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("jwt.hex"), EngineServerFixture.SECRET);
        String hash = UNKNOWN.toString();
        String tryHelp = "Try 'hexstream-example-server probe --help' for more information.\n";
        String[] base = {"probe", "--url", "http://127.0.0.1:1", "--jwt-secret", secret.toString(), "--hash", hash};
        assertEquals(
                new Run(2, "", "Invalid value for option '--transport': 'xml' is not json or ssz\n" + tryHelp),
                run(concat(base, "--transport", "xml")));
        assertEquals(
                new Run(
                        2,
                        "",
                        "--verify checks blobs, and engine_getBlobsV4 answers cells: no commitment to check"
                                + " them by\n" + tryHelp),
                run(concat(base, "--method", "engine_getBlobsV4", "--verify")));
        assertEquals(
                new Run(2, "", "--cells is engine_getBlobsV4's indices_bitarray, not engine_getBlobsV2's\n" + tryHelp),
                run(concat(base, "--cells", CellFixtures.bitarray(1))));
        assertEquals(
                new Run(
                        2,
                        "",
                        "Invalid value for option '--method': 'engine_getBlobsV5' is not"
                                + " engine_getBlobsV1, V2, V3 or V4\n" + tryHelp),
                run(concat(base, "--method", "engine_getBlobsV5")));
        assertEquals(
                2,
                run("probe", "--url", "http://127.0.0.1:1", "--jwt-secret", secret.toString())
                        .exitCode());
        Run refused = run(base);
        assertEquals(1, refused.exitCode());
        assertTrue(
                refused.stderr().matches("engine_getBlobsV2: cannot connect to 127\\.0\\.0\\.1:1: [^\n]+\n"),
                refused.stderr());
    }

    // ---------------------------------------------------------------- helpers

    /** The length of the body the server sends for the call with id 1, read by another client (java.net.http). */
    private static long bodyLength(EngineServerFixture server, String method, List<VersionedHash> hashes) {
        return server.post(EngineClient.request(1, method, EngineClient.hashParams(hashes)))
                .body()
                .length;
    }
}
