package io.hexstream.client.testing;

import io.hexstream.client.testing.Responses.Blob;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * getBlobs response bodies of the REST routes of execution-apis #793, built here by hand from the SSZ layouts
 * ({@code refactor-ssz.md}, "BlobsV1Response" to "BlobsV4Response"), not by the code under test.
 */
public final class SszBodies {
    private static final int OFFSET = 4;
    private static final int CELLS = 128;

    private SszBodies() {}

    /** {@code BlobsV1Response}: 4 ‖ each {@code BlobV1Entry} (fixed size) 1 ‖ blob ‖ proof. */
    public static byte[] v1(List<Blob> blobs) {
        int entry = 1 + Responses.BLOB_SIZE + Responses.PROOF_SIZE;
        ByteBuffer body = ByteBuffer.allocate(OFFSET + blobs.size() * entry).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(OFFSET);
        for (Blob blob : blobs) {
            body.put((byte) 1).put(blob.blob()).put(blob.proofs().get(0));
        }
        return body.array();
    }

    /** {@code BlobV2Entry{available, BlobAndProofV2{blob, proofs}}}: 1 ‖ 5 ‖ blob ‖ 131,076 ‖ 128 proofs. */
    public static int v2EntrySize() {
        return 1 + OFFSET + Responses.BLOB_SIZE + OFFSET + CELLS * Responses.PROOF_SIZE;
    }

    /** {@code BlobsV2Response} of {@code blobs} (128 proofs each): 4 ‖ one offset an entry ‖ the entries. */
    public static byte[] v2(List<Blob> blobs) {
        int n = blobs.size();
        ByteBuffer body =
                ByteBuffer.allocate(OFFSET + OFFSET * n + n * v2EntrySize()).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(OFFSET);
        for (int i = 0; i < n; i++) {
            body.putInt(OFFSET * n + i * v2EntrySize());
        }
        for (Blob blob : blobs) {
            body.put((byte) 1).putInt(5).put(blob.blob()).putInt(Responses.BLOB_SIZE + OFFSET);
            blob.proofs().forEach(body::put);
        }
        return body.array();
    }

    /**
     * {@code BlobsV4Response} of entry 0 available, the cells of {@code cells} in {@code cellSlots} and the proofs of
     * {@code cellProofs} in {@code proofSlots} (both all 128 back to back), and entry 1 unavailable: each
     * {@code BlobV4Entry} 1 ‖ 5 ‖ {@code BlobCellsAndProofs} (8 ‖ cells' end ‖ 128 slot offsets ‖ cells ‖ 128 slot
     * offsets ‖ proofs).
     */
    public static byte[] v4(byte[] cells, byte[] cellProofs, int[] cellSlots, int[] proofSlots) {
        byte[] first = cellsAndProofs(cells, cellProofs, cellSlots, proofSlots);
        byte[] second = cellsAndProofs(cells, cellProofs, new int[0], new int[0]);
        ByteBuffer body = ByteBuffer.allocate(OFFSET + 8 + 2 * 5 + first.length + second.length)
                .order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(OFFSET).putInt(8).putInt(8 + 5 + first.length);
        body.put((byte) 1).putInt(5).put(first);
        body.put((byte) 0).putInt(5).put(second);
        return body.array();
    }

    private static byte[] cellsAndProofs(byte[] cells, byte[] cellProofs, int[] cellSlots, int[] proofSlots) {
        int cellsBytes = OFFSET * CELLS + cellSlots.length * Responses.CELL_SIZE;
        ByteBuffer out = ByteBuffer.allocate(8 + cellsBytes + OFFSET * CELLS + proofSlots.length * Responses.PROOF_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(8).putInt(8 + cellsBytes);
        slots(out, cellSlots, Responses.CELL_SIZE);
        for (int cell : cellSlots) {
            out.put(cells, cell * Responses.CELL_SIZE, Responses.CELL_SIZE);
        }
        slots(out, proofSlots, Responses.PROOF_SIZE);
        for (int cell : proofSlots) {
            out.put(cellProofs, cell * Responses.PROOF_SIZE, Responses.PROOF_SIZE);
        }
        return out.array();
    }

    /** The 128 offsets of a {@code List[Optional[T], 128]} whose slots {@code filled} (ascending) hold one element. */
    private static void slots(ByteBuffer out, int[] filled, int size) {
        int before = 0;
        for (int slot = 0; slot < CELLS; slot++) {
            out.putInt(OFFSET * CELLS + before * size);
            if (before < filled.length && filled[before] == slot) {
                before++;
            }
        }
    }
}
