package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.client.testing.CollectedEntries;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link GetBlobsClient} on the SSZ routes of execution-apis #793 against a canned server: a body built here by hand
 * from the SSZ layouts ({@code refactor-ssz.md}), chunked in pieces of 1 to 64 bytes, gives the bytes it was built
 * from; V4 cells answered by slot give their cells; malformed bodies fail the call with one line naming the field and
 * the byte.
 */
class GetBlobsClientSszTest {
    private static final int OFFSET = 4;

    private final Random random = new Random(793);
    private final List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
    /** The 128 cells and 128 cell proofs of V4's entry 0, back to back. */
    private final byte[] cells = Responses.bytes(random, 128 * BlobSizes.CELL_SIZE);

    private final byte[] cellProofs = Responses.bytes(random, 128 * BlobSizes.PROOF_SIZE);

    @Test
    void aHandWrittenBodyInSmallChunksGivesItsBytes() throws Exception {
        byte[] body = v2Body();
        for (int max : new int[] {1, 7, 64}) {
            CollectedEntries got = new CollectedEntries();
            BlobsOutcome outcome = call(CannedHttpServer.chunked(body, max, max), BlobsMethod.V2, null, got);

            assertEquals(2, outcome.available());
            assertEquals(body.length, outcome.bodyBytes());
            assertEquals(List.of("blob 0", "blob 1"), got.told);
            for (int i = 0; i < 2; i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(concat(blobs.get(i).proofs()), got.proofs.get(i));
            }
        }
    }

    @Test
    void malformedBodiesAreOneLine() throws Exception {
        byte[] good = v2Body();
        int entry1 = 4 + 8 + entrySize();
        assertMalformed(with(good, 0, 5), "entries: offset 5, expected 4 at byte 0");
        assertMalformed(with(good, 4, 9), "entries offsets: offset 9, expected 8 at byte 4");
        assertMalformed(
                with(good, 8, 9),
                "entries[0].contents.proofs: 6136 bytes of proofs by the offsets, expected 6144 at byte "
                        + grouped(12 + 5 + 131_072 + 4));
        assertMalformed(with(good, entry1, 2), "entries[1].available: not a Boolean: 2 at byte " + grouped(entry1));
        assertMalformed(
                with(good, entry1 + 1, 6), "entries[1].contents: offset 6, expected 5 at byte " + grouped(entry1 + 1));
        assertMalformed(
                with(good, 12 + 5 + BlobSizes.BLOB_SIZE, 0),
                "entries[0].contents.proofs: offset 131072, expected 131076 at byte " + grouped(12 + 5 + 131_072));
        assertMalformed(
                Arrays.copyOf(good, good.length - 1),
                "entries[1].contents.proofs: the body ended 1 bytes short of this field at byte "
                        + grouped(good.length - 1));
        assertMalformed(
                Arrays.copyOf(good, good.length + 1),
                "entries: bytes after the last entry at byte " + grouped(good.length));
    }

    @Test
    void v4CellsAnsweredBySlotGiveTheirCells() throws Exception {
        byte[] body = v4Body(new int[] {0, 5}, new int[] {0, 5});
        CollectedEntries got = new CollectedEntries();
        BlobsOutcome outcome = call(CannedHttpServer.chunked(body, 64, 8), BlobsMethod.V4, bitarray(), got);

        assertEquals(1, outcome.available());
        assertEquals(List.of("cells 0 [0, 5]", "missing 1"), got.told);
        assertArrayEquals(
                concat(List.of(cell(cells, 0, BlobSizes.CELL_SIZE), cell(cells, 5, BlobSizes.CELL_SIZE))),
                got.blobs.get(0));
        assertArrayEquals(
                concat(List.of(cell(cellProofs, 0, BlobSizes.PROOF_SIZE), cell(cellProofs, 5, BlobSizes.PROOF_SIZE))),
                got.proofs.get(0));

        assertEquals(
                "entries[0].contents.proofs: the proofs answered are not for the cells answered at byte "
                        + grouped(12 + 5 + 8 + 512 + 2 * 2048 + 512),
                fault(ok(v4Body(new int[] {0, 5}, new int[] {0})), BlobsMethod.V4, bitarray()));
        assertEquals(
                "entries[0].contents.blob_cells: slot 3 holds a value, and cell 3 was not asked for at byte "
                        + grouped(12 + 5 + 8 + 3 * 4),
                fault(ok(v4Body(new int[] {0, 3}, new int[] {0, 3})), BlobsMethod.V4, bitarray()));
    }

    // ---------------------------------------------------------------- bodies, by hand from refactor-ssz.md

    /** {@code BlobV2Entry{available, BlobAndProofV2{blob, proofs}}}: 1 ‖ 5 ‖ blob ‖ 131,076 ‖ 128 proofs. */
    private static int entrySize() {
        return 1 + OFFSET + BlobSizes.BLOB_SIZE + OFFSET + 128 * BlobSizes.PROOF_SIZE;
    }

    /** {@code BlobsV2Response} of the two entries: 4 ‖ two offsets ‖ both entries. */
    private byte[] v2Body() {
        ByteBuffer body = ByteBuffer.allocate(4 + 8 + 2 * entrySize()).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(4).putInt(8).putInt(8 + entrySize());
        for (Blob blob : blobs) {
            body.put((byte) 1)
                    .putInt(5)
                    .put(blob.blob())
                    .putInt(BlobSizes.BLOB_SIZE + 4)
                    .put(concat(blob.proofs()));
        }
        return body.array();
    }

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
        int cellsBytes = 512 + cellSlots.length * BlobSizes.CELL_SIZE;
        ByteBuffer out = ByteBuffer.allocate(8 + cellsBytes + 512 + proofSlots.length * BlobSizes.PROOF_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(8).putInt(8 + cellsBytes);
        slots(out, cellSlots, BlobSizes.CELL_SIZE);
        for (int cell : cellSlots) {
            out.put(cells, cell * BlobSizes.CELL_SIZE, BlobSizes.CELL_SIZE);
        }
        slots(out, proofSlots, BlobSizes.PROOF_SIZE);
        for (int cell : proofSlots) {
            out.put(cellProofs, cell * BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
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

    /** {@code indices_bitarray} of cells 0, 5 and 100. */
    private static byte[] bitarray() {
        byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
        for (int cell : new int[] {0, 5, 100}) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        return bits;
    }

    private static byte[] with(byte[] body, int at, int value) {
        byte[] copy = body.clone();
        copy[at] = (byte) value;
        return copy;
    }

    private static byte[] ok(byte[] body) {
        return CannedHttpServer.contentLength(200, "application/octet-stream", body);
    }

    private static byte[] cell(byte[] all, int index, int size) {
        return Arrays.copyOfRange(all, index * size, (index + 1) * size);
    }

    private static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static String grouped(long offset) {
        return String.format(Locale.ROOT, "%,d", offset);
    }

    // ---------------------------------------------------------------- running

    private static BlobsOutcome call(byte[] response, BlobsMethod method, byte[] bitarray, CollectedEntries listener)
            throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response);
                GetBlobsClient client = client(server)) {
            return client.call(getBlobs(method, bitarray), listener).get(30, TimeUnit.SECONDS);
        }
    }

    private void assertMalformed(byte[] body, String fault) throws Exception {
        assertEquals(fault, fault(ok(body), BlobsMethod.V2, null));
    }

    private static String fault(byte[] response, BlobsMethod method, byte[] bitarray) throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response);
                GetBlobsClient client = client(server)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> client.call(getBlobs(method, bitarray), new CollectedEntries())
                            .get(30, TimeUnit.SECONDS));
            return assertInstanceOf(BadResponseException.class, e.getCause()).getMessage();
        }
    }

    private static GetBlobsClient client(CannedHttpServer server) {
        return GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:" + server.port() + "/"))
                .tokens(() -> "unchecked")
                .ssz(true)
                .build();
    }

    private static GetBlobsCall getBlobs(BlobsMethod method, byte[] bitarray) {
        List<VersionedHash> asked = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            byte[] hash = new byte[BlobSizes.VERSIONED_HASH_SIZE];
            hash[0] = VersionedHash.VERSION_KZG;
            hash[1] = (byte) i;
            asked.add(VersionedHash.wrap(hash));
        }
        return new GetBlobsCall(method, asked, bitarray);
    }
}
