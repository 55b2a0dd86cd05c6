package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code probe} against the example server: V1 to V4, the files of {@code --out} compared byte for byte with the pool's
 * entries (and c-kzg's cells), {@code --verify} passing, the line per request, the JSON-RPC error and HTTP 401 lines,
 * the usage errors.
 */
class ProbeTest {
    /** {@code engine_getBlobsV2 #1: 6/6 blobs, 1,650,592 bytes, first byte 0.84 ms, first blob 1.91 ms, last …}. */
    static final Pattern LINE = Pattern.compile("(engine_getBlobsV\\d) #(\\d+): (\\d+)/(\\d+) blobs, ([\\d,]+) bytes,"
            + " first byte \\d+\\.\\d\\d ms, first blob (-|\\d+\\.\\d\\d ms), last byte \\d+\\.\\d\\d ms");

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
            assertEquals(new Run(1, "", "engine_getBlobsV2: HTTP 401 Unauthorized\n"), run);
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

    /** {@code probe} of {@code hashes} (through a hashes file) against {@code server}, with {@code options}. */
    static Run probe(EngineServerFixture server, Path dir, List<VersionedHash> hashes, String... options)
            throws IOException {
        return probe("http://127.0.0.1:" + server.port(), dir, hashes, options);
    }

    /** {@code probe} of {@code hashes} against {@code url} with the fixture's secret, with {@code options}. */
    static Run probe(String url, Path dir, List<VersionedHash> hashes, String... options) throws IOException {
        Path secret = Files.writeString(dir.resolve("jwt.hex"), EngineServerFixture.SECRET);
        Path list = Files.write(
                dir.resolve("hashes.txt"),
                hashes.stream().map(VersionedHash::toString).toList());
        return run(concat(
                new String[] {"probe", "--url", url, "--jwt-secret", secret.toString(), "--hashes", list.toString()},
                options));
    }

    /** The command line in this JVM, its output captured. */
    static Run run(String... args) {
        CommandLine commandLine = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    static String[] concat(String[] first, String... more) {
        return Stream.concat(Arrays.stream(first), Arrays.stream(more)).toArray(String[]::new);
    }

    /** The one line of a run; its body length checked unless {@code length} is -1. */
    static Matcher assertLine(String stdout, String method, int available, int asked, long length) {
        assertTrue(stdout.endsWith("\n"), stdout);
        Matcher line = LINE.matcher(stdout.substring(0, stdout.length() - 1));
        assertTrue(line.matches(), stdout);
        assertEquals(method, line.group(1));
        assertEquals(available + "/" + asked, line.group(3) + "/" + line.group(4));
        if (length >= 0) {
            assertEquals(length, Long.parseLong(line.group(5).replace(",", "")), stdout);
        }
        return line;
    }

    /** The length of the body the server sends for the call with id 1, read by another client (java.net.http). */
    private static long bodyLength(EngineServerFixture server, String method, List<VersionedHash> hashes) {
        return server.post(EngineClient.request(1, method, EngineClient.hashParams(hashes)))
                .body()
                .length;
    }

    /** {@code out} holds exactly a {@code .blob} and a {@code .proofs} for each of {@code hashes}, the pool's bytes. */
    private static void assertBlobFiles(EngineServerFixture server, Path out, List<VersionedHash> hashes, boolean v1)
            throws IOException {
        List<String> expected = new ArrayList<>();
        for (VersionedHash hash : hashes) {
            BlobEntry entry = server.server().pool().get(hash);
            String name = hash.toString().substring(2);
            assertArrayEquals(entry.blob(), Files.readAllBytes(out.resolve(name + ".blob")));
            assertArrayEquals(
                    v1 ? entry.blobProof() : entry.cellProofs(), Files.readAllBytes(out.resolve(name + ".proofs")));
            expected.add(name + ".blob");
            expected.add(name + ".proofs");
        }
        assertEquals(expected.stream().distinct().sorted().toList(), files(out));
    }

    /** The names of the files in {@code dir}, sorted (temporary files included). */
    static List<String> files(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
