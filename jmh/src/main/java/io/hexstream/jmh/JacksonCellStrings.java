package io.hexstream.jmh;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.hexstream.client.BlobSizes;
import java.util.ArrayList;
import java.util.List;

/**
 * Besu's way to a getBlobsV4 response: every selected cell (a 2,048-byte slice of the blob's 128 cells) and its cell
 * proof made a {@code String} by the {@code char[]} method ({@link BesuHex}), gathered for Jackson, as
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/methods/engine/EngineGetBlobsV4.java} (besu-eth/besu
 * {@code 73f7360e72dcae6c73bcfe7ea7778ad8f9abe73c}: the blobs one after another, no {@code parallelStream}) builds its
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/results/BlobCellsAndProofsV1.java} (String lists, {@code blob_cells} then {@code proofs}). A
 * baseline for the benchmarks only; the response around it is {@link BesuBlobsJson.Response}.
 */
public final class JacksonCellStrings {
    private JacksonCellStrings() {}

    /** {@code BlobCellsAndProofsV1}. */
    @JsonPropertyOrder({"blob_cells", "proofs"})
    public record BlobCellsAndProofsV1(
            @JsonProperty("blob_cells") List<String> blobCells, List<String> proofs) {}

    /**
     * The {@code cells} (ascending indices, 0 to 127) of one blob as Strings: cells 0 to 63 sliced from {@code blob},
     * 64 to 127 from {@code extensionCells} (as Besu slices its 128 stored cells), each with its proof from
     * {@code cellProofs}; {@code null} cell and proof from 64 on if {@code extensionCells} is {@code null}.
     */
    public static BlobCellsAndProofsV1 cellsAndProofs(
            byte[] blob, byte[] extensionCells, byte[] cellProofs, int[] cells) {
        List<String> blobCells = new ArrayList<>(cells.length);
        List<String> proofs = new ArrayList<>(cells.length);
        for (int cell : cells) {
            boolean inBlob = cell < BlobSizes.CELLS_IN_BLOB;
            if (!inBlob && extensionCells == null) {
                blobCells.add(null);
                proofs.add(null);
                continue;
            }
            int at = (inBlob ? cell : cell - BlobSizes.CELLS_IN_BLOB) * BlobSizes.CELL_SIZE;
            blobCells.add(BesuHex.toFastHex(inBlob ? blob : extensionCells, at, BlobSizes.CELL_SIZE, true));
            proofs.add(BesuHex.toFastHex(cellProofs, cell * BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE, true));
        }
        return new BlobCellsAndProofsV1(blobCells, proofs);
    }
}
