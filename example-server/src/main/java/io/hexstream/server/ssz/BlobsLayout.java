package io.hexstream.server.ssz;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.GetBlobs;

/**
 * The bytes of {@code BlobsV1Response} to {@code BlobsV4Response} (execution-apis #793, {@code refactor-ssz.md},
 * "{@code POST /blobs/v1}" … "{@code /v4}", "{@code BlobAndProof} per revision"), described once, as the parts it puts
 * in an {@link SszSink}: a counting sink gives the length and the offsets, a writing sink the body. Offsets are
 * {@code uint32} little-endian, counted from the start of the list or container they belong to; {@code Optional[T]} is
 * {@code List[T, 1]}; n hashes asked for:
 *
 * <pre>
 * BlobsV1Response{entries: List[BlobV1Entry, 128]}             4 ‖ n × BlobV1Entry
 *   BlobV1Entry{available: Boolean, contents: BlobAndProofV1}  available 1 ‖ blob 131,072 ‖ proof 48
 *                                                              (zeros when unavailable) = 131,121
 * BlobsV2Response, BlobsV3Response{entries: List[BlobV2Entry, 128]}
 *                                                              4 ‖ n offsets ‖ n × BlobV2Entry
 *   BlobV2Entry{available, contents: BlobAndProofV2}           available 1 ‖ 5 ‖ BlobAndProofV2
 *   BlobAndProofV2{blob, proofs: List[Bytes48, 128]}           blob 131,072 ‖ 131,076 ‖ 128 × proof 48
 *                                                              (unavailable, V3: zero blob, no proofs)
 * BlobsV4Response{entries: List[BlobV4Entry, 128]}             4 ‖ n offsets ‖ n × BlobV4Entry
 *   BlobV4Entry{available, contents: BlobCellsAndProofs}       available 1 ‖ 5 ‖ BlobCellsAndProofs
 *   BlobCellsAndProofs{blob_cells: List[Optional[ByteVector[2048]], 128], proofs: List[Optional[Bytes48], 128]}
 *                                                              8 ‖ 8 + 512 + 2,048 c ‖ 128 offsets ‖ c cells
 *                                                              ‖ 128 offsets ‖ c proofs
 * </pre>
 *
 * V4's lists have a slot per cell index, 0 to 127; slot i holds cell i and its proof where i is selected by
 * {@code indices_bitarray} and the entry has it (c such cells), else {@code []}: an unavailable entry, and an entry
 * pooled without cell proofs, have 128 empty slots in each list. {@code available} is whether the JSON-RPC method would
 * answer the entry non-{@code null}. Not thread-safe: one response's.
 */
final class BlobsLayout {
    /** A 4-byte SSZ offset. */
    static final int OFFSET = 4;
    /** A {@code BlobV2Entry} or {@code BlobV4Entry}: {@code available}, then the offset of {@code contents}. */
    static final int ENTRY_FIXED = 1 + OFFSET;
    /** The offset of {@code proofs} in a {@code BlobAndProofV2}: after the blob and that offset. */
    static final int PROOFS_OFFSET = BlobSizes.BLOB_SIZE + OFFSET;
    /** A V4 list's offset table: one offset a slot. */
    static final int SLOT_OFFSETS = BlobSizes.CELLS_PER_EXT_BLOB * OFFSET;

    private final GetBlobs.Version version;
    private final CellIndices cells;
    /** Counts an entry; the header, which counts entries for its offsets, has its own. */
    private final SszSink.Counter counter = new SszSink.Counter();

    private final SszSink.Counter headerCounter = new SszSink.Counter();

    /** @param cells V4's selected cells, else {@code null} */
    BlobsLayout(GetBlobs.Version version, CellIndices cells) {
        if ((version == GetBlobs.Version.V4) != (cells != null)) {
            throw new IllegalArgumentException(version + (cells == null ? " without" : " with") + " cell indices");
        }
        this.version = version;
        this.cells = cells;
    }

    /** The response's container offset and, for V2 to V4 (variable-size entries), the list's offset table. */
    void header(BlobEntry[] entries, SszSink sink) {
        sink.offset(OFFSET);
        if (version == GetBlobs.Version.V1) {
            return;
        }
        long offset = (long) OFFSET * entries.length;
        for (BlobEntry entry : entries) {
            sink.offset((int) offset);
            offset += entryBytes(entry);
        }
    }

    /** The bytes of {@code entry}'s {@code BlobVNEntry}. */
    long entryBytes(BlobEntry entry) {
        counter.take();
        entry(entry, counter);
        return counter.take();
    }

    /** The whole body's length: the header and every entry. */
    long bodyBytes(BlobEntry[] entries) {
        headerCounter.take();
        header(entries, headerCounter);
        long bytes = headerCounter.take();
        for (BlobEntry entry : entries) {
            bytes += entryBytes(entry);
        }
        return bytes;
    }

    /**
     * One {@code BlobVNEntry}.
     *
     * @param entry as the lookup found it: {@code null} where the version cannot serve the hash
     */
    void entry(BlobEntry entry, SszSink sink) {
        sink.uint8(entry != null ? 1 : 0);
        switch (version) {
            case V1 -> {
                if (entry != null) {
                    sink.bytes(entry.blob(), 0, BlobSizes.BLOB_SIZE);
                    sink.bytes(entry.blobProof(), 0, BlobSizes.PROOF_SIZE);
                } else {
                    sink.zeros(BlobSizes.BLOB_SIZE + BlobSizes.PROOF_SIZE);
                }
            }
            case V2, V3 -> {
                sink.offset(ENTRY_FIXED);
                if (entry != null) {
                    sink.bytes(entry.blob(), 0, BlobSizes.BLOB_SIZE);
                    sink.offset(PROOFS_OFFSET);
                    sink.bytes(entry.cellProofs(), 0, BlobSizes.CELL_PROOFS_SIZE);
                } else {
                    sink.zeros(BlobSizes.BLOB_SIZE);
                    sink.offset(PROOFS_OFFSET);
                }
            }
            case V4 -> {
                sink.offset(ENTRY_FIXED);
                cellsAndProofs(entry, sink);
            }
        }
    }

    /** V4's {@code BlobCellsAndProofs}: the selected cells {@code entry} has, in a slot per cell index. */
    private void cellsAndProofs(BlobEntry entry, SszSink sink) {
        int[] selected = cells.cellList();
        int present = entry == null || entry.cellProofs() == null
                ? 0
                : entry.extensionCells() != null ? selected.length : cells.inBlob();
        sink.offset(2 * OFFSET);
        sink.offset(2 * OFFSET + SLOT_OFFSETS + present * BlobSizes.CELL_SIZE);
        slotOffsets(selected, present, BlobSizes.CELL_SIZE, sink);
        for (int k = 0; k < present; k++) {
            int cell = selected[k];
            if (cell < BlobSizes.CELLS_IN_BLOB) {
                sink.bytes(entry.blob(), cell * BlobSizes.CELL_SIZE, BlobSizes.CELL_SIZE);
            } else {
                sink.bytes(
                        entry.extensionCells(),
                        (cell - BlobSizes.CELLS_IN_BLOB) * BlobSizes.CELL_SIZE,
                        BlobSizes.CELL_SIZE);
            }
        }
        slotOffsets(selected, present, BlobSizes.PROOF_SIZE, sink);
        for (int k = 0; k < present; k++) {
            sink.bytes(entry.cellProofs(), selected[k] * BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
        }
    }

    /**
     * The offset table of a {@code List[Optional[T], 128]} whose slots {@code selected[0 .. present)} hold one
     * {@code size}-byte element and the others none: slot i's offset counts the elements before it.
     */
    private static void slotOffsets(int[] selected, int present, int size, SszSink sink) {
        int before = 0;
        for (int slot = 0; slot < BlobSizes.CELLS_PER_EXT_BLOB; slot++) {
            sink.offset(SLOT_OFFSETS + before * size);
            if (before < present && selected[before] == slot) {
                before++;
            }
        }
    }
}
