package io.hexstream.server;

import static io.hexstream.server.ProbeRuns.assertBlobFiles;
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
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import io.hexstream.server.testing.SszBlobs;
import io.hexstream.server.testing.TestBlobs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --transport ssz}: against the example server, V1 to V4, the files of {@code --out} compared with the
 * pool's bytes (and c-kzg's cells), the body length with the server's own answer read by another client, {@code 204}
 * and problem statuses in one line; against a canned server, a body built here from the SSZ layouts by hand, split in
 * chunks of 1 to 64 bytes, gives the same files, and malformed bodies give their one-line fault naming the field and
 * the byte, leaving no file.
 */
class ProbeSszTest {
    private static final VersionedHash UNKNOWN = VersionedHash.wrap(new byte[32]);

    /** Cells 0, 5 and 100 asked for. */
    private static final String CELLS = CellFixtures.bitarray(0, 5, 100);

    private final List<BlobEntry> entries = TestBlobs.first(2);
    private final List<VersionedHash> hashes = entries.stream()
            .map(e -> VersionedHash.ofCommitment(e.commitment()))
            .toList();

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

    @Test
    void aHandWrittenBodyInSmallChunksGivesThePoolsBytes(@TempDir Path dir) throws Exception {
        byte[] body = v2Body();
        Random random = new Random(793);
        for (int max : new int[] {1, 7, 64}) {
            Path sub = dir.resolve("max" + max);
            Run run = canned(sub, chunked(body, max, random), "engine_getBlobsV2");
            assertEquals(0, run.exitCode(), run.stderr());
            ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV2", 2, 2, body.length);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                String name = hashes.get(i).toString().substring(2);
                assertArrayEquals(entries.get(i).blob(), Files.readAllBytes(sub.resolve("out/" + name + ".blob")));
                assertArrayEquals(
                        entries.get(i).cellProofs(), Files.readAllBytes(sub.resolve("out/" + name + ".proofs")));
                expected.addAll(List.of(name + ".blob", name + ".proofs"));
            }
            assertEquals(expected.stream().sorted().toList(), ProbeRuns.files(sub.resolve("out")));
        }
    }

    @Test
    void malformedBodiesAreOneLineAndLeaveNoFile(@TempDir Path dir) throws Exception {
        byte[] good = v2Body();
        int entry1 = 4 + 8 + entrySize();
        assertMalformed(dir, "list offset", with(good, 0, 5), "entries: offset 5, expected 4 at byte 0");
        assertMalformed(dir, "table", with(good, 4, 9), "entries offsets: offset 9, expected 8 at byte 4");
        assertMalformed(
                dir,
                "second offset",
                with(good, 8, 9),
                "entries[0].contents.proofs: 6136 bytes of proofs by the offsets, expected 6144 at byte "
                        + grouped(12 + 5 + 131_072 + 4));
        assertMalformed(
                dir,
                "available",
                with(good, entry1, 2),
                "entries[1].available: not a Boolean: 2 at byte " + grouped(entry1));
        assertMalformed(
                dir,
                "contents offset",
                with(good, entry1 + 1, 6),
                "entries[1].contents: offset 6, expected 5 at byte " + grouped(entry1 + 1));
        assertMalformed(
                dir,
                "proofs offset",
                with(good, 12 + 5 + BlobSizes.BLOB_SIZE, 0),
                "entries[0].contents.proofs: offset 131072, expected 131076 at byte " + grouped(12 + 5 + 131_072));
        assertMalformed(
                dir,
                "cut short",
                Arrays.copyOf(good, good.length - 1),
                "entries[1].contents.proofs: the body ended 1 bytes short of this field at byte "
                        + grouped(good.length - 1));
        assertMalformed(
                dir,
                "one more",
                Arrays.copyOf(good, good.length + 1),
                "entries: bytes after the last entry at byte " + grouped(good.length));
    }

    @Test
    void v4CellsAnsweredBySlotGiveTheirFiles(@TempDir Path dir) throws Exception {
        byte[] body = v4Body(new int[] {0, 5}, new int[] {0, 5});
        Path sub = dir.resolve("good");
        Run run = canned(sub, chunked(body, 64, new Random(8)), "engine_getBlobsV4", "--cells", CELLS);
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV4", 1, 2, body.length);
        byte[] all = CellFixtures.allCells(entries.get(0).blob());
        String name = hashes.get(0).toString().substring(2);
        List<String> expected = new ArrayList<>();
        for (int cell : new int[] {0, 5}) {
            assertArrayEquals(
                    Arrays.copyOfRange(all, cell * BlobSizes.CELL_SIZE, (cell + 1) * BlobSizes.CELL_SIZE),
                    Files.readAllBytes(sub.resolve("out/" + name + ".cell-" + cell)));
            assertArrayEquals(
                    Arrays.copyOfRange(
                            entries.get(0).cellProofs(),
                            cell * BlobSizes.PROOF_SIZE,
                            (cell + 1) * BlobSizes.PROOF_SIZE),
                    Files.readAllBytes(sub.resolve("out/" + name + ".proof-" + cell)));
            expected.addAll(List.of(name + ".cell-" + cell, name + ".proof-" + cell));
        }
        assertEquals(expected.stream().sorted().toList(), ProbeRuns.files(sub.resolve("out")));

        Path mismatch = dir.resolve("mismatch");
        Run bad = canned(
                mismatch, response(v4Body(new int[] {0, 5}, new int[] {0})), "engine_getBlobsV4", "--cells", CELLS);
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV4: entries[0].contents.proofs: the proofs answered are not for the cells"
                                + " answered at byte " + grouped(12 + 5 + 8 + 512 + 2 * 2048 + 512) + "\n"),
                bad);
        assertEquals(List.of(), ProbeRuns.files(mismatch.resolve("out")));

        Path unasked = dir.resolve("unasked");
        Run notAsked = canned(
                unasked, response(v4Body(new int[] {0, 3}, new int[] {0, 3})), "engine_getBlobsV4", "--cells", CELLS);
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV4: entries[0].contents.blob_cells: slot 3 holds a value, and cell 3 was not"
                                + " asked for at byte " + grouped(12 + 5 + 8 + 3 * 4) + "\n"),
                notAsked);
    }

    @Test
    void aProblemIsOneLineWithItsStatusTypeAndDetail(@TempDir Path dir) throws Exception {
        byte[] problem =
                "{\"type\":\"/engine-api/errors/request-too-large\",\"detail\":\"3 versioned hashes, at most 2\"}"
                        .getBytes(US_ASCII);
        byte[] head = ("HTTP/1.1 413 Content Too Large\r\nContent-Type: application/problem+json\r\nContent-Length: "
                        + problem.length + "\r\n\r\n")
                .getBytes(US_ASCII);
        byte[] response = Arrays.copyOf(head, head.length + problem.length);
        System.arraycopy(problem, 0, response, head.length, problem.length);
        Run run = canned(dir, response, "engine_getBlobsV2");
        assertEquals(
                new Run(1, "", "engine_getBlobsV2: HTTP 413 request-too-large: 3 versioned hashes, at most 2\n"), run);
    }

    // ---------------------------------------------------------------- bodies, by hand from refactor-ssz.md

    /**
     * {@code BlobsV4Response} of entry 0 available, its cells in {@code cellSlots} and proofs in {@code proofSlots},
     * and entry 1 unavailable: each {@code BlobV4Entry} 1 ‖ 5 ‖ {@code BlobCellsAndProofs} (8 ‖ cells' end ‖ 128 slot
     * offsets ‖ cells ‖ 128 slot offsets ‖ proofs).
     */
    private byte[] v4Body(int[] cellSlots, int[] proofSlots) {
        byte[] first = cellsAndProofs(cellSlots, proofSlots);
        byte[] second = cellsAndProofs(new int[0], new int[0]);
        ByteBuffer body = ByteBuffer.allocate(4 + 8 + 2 * 5 + first.length + second.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(4).putInt(8).putInt(8 + 5 + first.length);
        body.put((byte) 1).putInt(5).put(first);
        body.put((byte) 0).putInt(5).put(second);
        return body.array();
    }

    private byte[] cellsAndProofs(int[] cellSlots, int[] proofSlots) {
        byte[] all = CellFixtures.allCells(entries.get(0).blob());
        byte[] proofs = entries.get(0).cellProofs();
        int cellsBytes = 512 + cellSlots.length * BlobSizes.CELL_SIZE;
        ByteBuffer out = ByteBuffer.allocate(8 + cellsBytes + 512 + proofSlots.length * BlobSizes.PROOF_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(8).putInt(8 + cellsBytes);
        slots(out, cellSlots, BlobSizes.CELL_SIZE);
        for (int cell : cellSlots) {
            out.put(all, cell * BlobSizes.CELL_SIZE, BlobSizes.CELL_SIZE);
        }
        slots(out, proofSlots, BlobSizes.PROOF_SIZE);
        for (int cell : proofSlots) {
            out.put(proofs, cell * BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
        }
        return out.array();
    }

    /** The 128 offsets of a {@code List[Optional[T], 128]} whose slots {@code filled} (ascending) hold one element. */
    private static void slots(ByteBuffer out, int[] filled, int size) {
        int before = 0;
        for (int slot = 0; slot < 128; slot++) {
            out.putInt(512 + before * size);
            if (before < filled.length && filled[before] == slot) {
                before++;
            }
        }
    }

    /** {@code BlobV2Entry{available, BlobAndProofV2{blob, proofs}}}: 1 ‖ 5 ‖ blob ‖ 131,076 ‖ 128 proofs. */
    private static int entrySize() {
        return 1 + 4 + BlobSizes.BLOB_SIZE + 4 + 128 * BlobSizes.PROOF_SIZE;
    }

    /** {@code BlobsV2Response} of the two entries: 4 ‖ two offsets ‖ both entries. */
    private byte[] v2Body() {
        ByteBuffer body = ByteBuffer.allocate(4 + 8 + 2 * entrySize()).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(4).putInt(8).putInt(8 + entrySize());
        for (BlobEntry entry : entries) {
            body.put((byte) 1)
                    .putInt(5)
                    .put(entry.blob())
                    .putInt(BlobSizes.BLOB_SIZE + 4)
                    .put(entry.cellProofs());
        }
        return body.array();
    }

    private static byte[] with(byte[] body, int at, int value) {
        byte[] copy = body.clone();
        copy[at] = (byte) value;
        return copy;
    }

    private static byte[] response(byte[] body) {
        byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: " + body.length
                        + "\r\n\r\n")
                .getBytes(US_ASCII);
        byte[] response = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, response, head.length, body.length);
        return response;
    }

    /** {@code body} chunked in pieces of 1 to {@code max} bytes. */
    private static byte[] chunked(byte[] body, int max, Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 2);
        out.writeBytes("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(US_ASCII));
        for (int at = 0; at < body.length; ) {
            int n = Math.min(body.length - at, 1 + random.nextInt(max));
            out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(US_ASCII));
            out.write(body, at, n);
            out.writeBytes("\r\n".getBytes(US_ASCII));
            at += n;
        }
        out.writeBytes("0\r\n\r\n".getBytes(US_ASCII));
        return out.toByteArray();
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

    private Run canned(Path dir, byte[] response, String method, String... options) throws Exception {
        Files.createDirectories(dir);
        try (CannedHttpServer server = new CannedHttpServer(n -> response)) {
            return ProbeRuns.probe(
                    "http://127.0.0.1:" + server.port() + "/", dir, hashes, sszOptions(dir, method, options));
        }
    }

    private void assertMalformed(Path dir, String name, byte[] body, String fault) throws Exception {
        Path sub = dir.resolve(name.replace(' ', '-'));
        Run run = canned(sub, response(body), "engine_getBlobsV2");
        assertEquals(new Run(1, "", "engine_getBlobsV2: " + fault + "\n"), run, name);
        assertEquals(List.of(), ProbeRuns.files(sub.resolve("out")), name);
    }

    private static String grouped(long offset) {
        return String.format(java.util.Locale.ROOT, "%,d", offset);
    }
}
