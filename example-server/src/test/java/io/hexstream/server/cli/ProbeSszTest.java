package io.hexstream.server.cli;

import static io.hexstream.server.cli.ProbeRuns.assertBlobFiles;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import io.hexstream.server.testing.SszBlobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --transport ssz}: against the example server, V1 to V4, the files of {@code --out} compared with the
 * pool's bytes (and c-kzg's cells), the body length with the server's own answer read by another client, {@code 204}
 * and problem statuses in one line. The client's reading of hand-built bodies, problem documents and their faults is
 * {@code GetBlobsClientSszTest}'s and {@code GetBlobsClientTest}'s, in the client module.
 */
class ProbeSszTest {
    private static final VersionedHash UNKNOWN = VersionedHash.wrap(new byte[32]);

    @Test
    void v2WritesEachBlobAndItsCellProofsAndVerifies(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> asked = server.hashes();
            Run run = ssz(server, dir, asked, "engine_getBlobsV2", "--verify");
            assertEquals(0, run.exitCode(), run.stderr());
            assertEquals("", run.stderr());
            long length = SszBlobs.post(server, "/engine/v1/blobs/v2", SszBlobs.request(asked))
                    .body()
                    .length;
            ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV2", 6, 6, length);
            assertBlobFiles(server, dir.resolve("out"), asked, false);
        }
    }

    @Test
    void v1AndV3LeaveOutTheUnavailable(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.PRAGUE)) {
            List<VersionedHash> asked = new ArrayList<>(server.hashes());
            asked.add(2, UNKNOWN);
            Run run = ssz(server, dir, asked, "engine_getBlobsV1", "--verify");
            assertEquals(0, run.exitCode(), run.stderr());
            ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV1", 6, 7, 4 + 7L * (1 + 131_072 + 48));
            assertBlobFiles(server, dir.resolve("out"), server.hashes(), true);
        }
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> asked =
                    List.of(server.hashes().get(4), UNKNOWN, server.hashes().get(1));
            Run run = ssz(server, dir.resolve("v3"), asked, "engine_getBlobsV3", "--repeat", "2");
            assertEquals(0, run.exitCode(), run.stderr());
            assertTrue(run.stdout().startsWith("engine_getBlobsV3 #1: 2/3 blobs, "), run.stdout());
            assertBlobFiles(server, dir.resolve("v3").resolve("out"), List.of(asked.get(0), asked.get(2)), false);
        }
    }

    @Test
    void v4WritesEachCellAndItsProof(@TempDir Path dir) throws Exception {
        int[] cells = {0, 5, 63, 64, 100, 127};
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> asked =
                    List.of(server.hashes().get(3), UNKNOWN, server.hashes().get(0));
            Run run = ssz(server, dir, asked, "engine_getBlobsV4", "--cells", CellFixtures.bitarray(cells));
            assertEquals(0, run.exitCode(), run.stderr());
            ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV4", 2, 3, -1);
            Path out = dir.resolve("out");
            List<String> expected = new ArrayList<>();
            for (VersionedHash hash : List.of(asked.get(0), asked.get(2))) {
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
            assertEquals(expected.stream().sorted().toList(), ProbeRuns.files(out));
        }
    }

    @Test
    void noContentAndProblemsAreOneLine(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> asked = List.of(server.hashes().get(0), UNKNOWN);
            Run missing = ssz(server, dir, asked, "engine_getBlobsV2");
            assertEquals(0, missing.exitCode(), missing.stderr());
            ProbeRuns.assertLine(missing.stdout(), "engine_getBlobsV2", 0, 2, 0);
            assertEquals(List.of(), ProbeRuns.files(dir.resolve("out")));

            Run notServed = ssz(server, dir, asked, "engine_getBlobsV1");
            assertEquals(
                    new Run(
                            1,
                            "",
                            "engine_getBlobsV1: HTTP 404 method-not-found: /engine/v1/blobs/v1 is not served under"
                                    + " osaka\n"),
                    notServed);
        }
    }

    // ---------------------------------------------------------------- running

    private static Run ssz(
            EngineServerFixture server, Path dir, List<VersionedHash> asked, String method, String... options)
            throws IOException {
        Files.createDirectories(dir);
        return ProbeRuns.probe(server, dir, asked, sszOptions(dir, method, options));
    }

    /** {@code options}, then SSZ, {@code method} and {@code dir/out}. */
    private static String[] sszOptions(Path dir, String method, String... options) {
        return ProbeRuns.concat(
                options,
                "--transport",
                "ssz",
                "--method",
                method,
                "--out",
                dir.resolve("out").toString());
    }
}
