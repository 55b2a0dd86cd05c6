package io.hexstream.server.engine;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;

/**
 * {@code BlobCellsAndProofsV1} (execution-apis {@code amsterdam.md}):
 * {@code {"blob_cells":["0x…",…],"proofs":["0x…",…]}}, the {@code cells} selected, in index order: cells 0 to 63
 * referenced in the blob, 64 to 127 in the extension cells, proofs in the cell proofs; {@code null} cell and proof for
 * each cell the entry lacks (every cell without cell proofs, 64 to 127 without extension cells). With the entry's
 * cached element, cells 0 to 63 are written from the blob's digits in it, not encoded; the extension cells and the
 * proofs (48 bytes each, a few hundred a response) are encoded as without it.
 *
 * @param cells the cells selected ({@code indices_bitarray})
 */
public record BlobCellsAndProofsV1(CellIndices cells) implements BlobShape {

    @Override
    public void write(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded) {
        b.beginObject().name("blob_cells").beginArray();
        if (entry.cellProofs() == null) {
            nulls(b, cells.count());
            b.endArray().name("proofs").beginArray();
            nulls(b, cells.count());
        } else {
            int extension = cells.count() - cells.inBlob();
            if (encoded != null) {
                b.encodedHexElements(encoded.blob(), BlobSizes.CELL_SIZE, cells.cellList(), 0, cells.inBlob(), true);
            } else {
                b.hexElements(entry.blob(), 0, BlobSizes.CELL_SIZE, cells.cellList(), 0, cells.inBlob());
            }
            if (entry.extensionCells() != null) {
                b.hexElements(entry.extensionCells(), 0, BlobSizes.CELL_SIZE, cells.extensionList(), 0, extension);
            } else {
                nulls(b, extension);
            }
            int[] proofs = entry.extensionCells() != null ? cells.cellList() : cells.proofListWithoutExtension();
            b.endArray().name("proofs").beginArray();
            b.hexElements(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE, proofs, 0, cells.count());
        }
        b.endArray().endObject();
    }

    private static void nulls(JsonBodyBuilder b, int count) {
        for (int i = 0; i < count; i++) {
            b.nullValue();
        }
    }
}
