package io.hexstream.server.kzg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ethereum.ckzg4844.CKZG4844JNI;
import ethereum.ckzg4844.CellsAndProofs;
import io.hexstream.client.BlobSizes;
import io.hexstream.server.blob.BlobEntry;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the pool relies on before it keeps only cells 64 to 127: cells 0 to 63 of the extended blob are the blob's own
 * bytes (the extension is systematic), so the blob and {@link Kzg#extensionCells} together are all 128 cells of
 * {@code computeCells}; and the entries made by generation and by converting a v0 sidecar carry exactly those cells and
 * {@code computeCellsAndKzgProofs}' proofs.
 */
class KzgCellsTest {
    private static final long[] SEEDS = {1, 0x5EED, 0xB10B_CE11L, -7};

    private static byte[] blob(long seed) {
        return BlobGenerator.randomBlob(new Random(seed));
    }

    @Test
    void cellsZeroToSixtyThreeAreTheBlobAndTheExtensionIsTheRest() {
        Kzg.load();
        for (long seed : SEEDS) {
            byte[] blob = blob(seed);
            byte[] cells = CKZG4844JNI.computeCells(blob);
            assertEquals(BlobSizes.CELLS_PER_EXT_BLOB * BlobSizes.CELL_SIZE, cells.length, "seed " + seed);
            assertArrayEquals(
                    blob,
                    Arrays.copyOfRange(cells, 0, BlobSizes.CELLS_IN_BLOB * BlobSizes.CELL_SIZE),
                    "cells 0-63 of seed " + seed);
            byte[] all = new byte[cells.length];
            System.arraycopy(blob, 0, all, 0, BlobSizes.BLOB_SIZE);
            System.arraycopy(Kzg.extensionCells(blob), 0, all, BlobSizes.BLOB_SIZE, BlobSizes.EXTENSION_CELLS_SIZE);
            assertArrayEquals(cells, all, "all 128 cells of seed " + seed);
        }
    }

    @Test
    void generatedAndConvertedEntriesCarryTheCellsAndCellProofsOfComputeCellsAndKzgProofs() {
        byte[] blob = blob(SEEDS[1]);
        CellsAndProofs expected = CKZG4844JNI.computeCellsAndKzgProofs(blob);
        byte[] extension = Arrays.copyOfRange(expected.getCells(), BlobSizes.BLOB_SIZE, 2 * BlobSizes.BLOB_SIZE);

        BlobEntry generated = Kzg.entryFor(blob);
        assertArrayEquals(extension, generated.extensionCells());
        assertArrayEquals(expected.getProofs(), generated.cellProofs());

        BlobEntry v0 = new BlobEntry(blob, generated.commitment(), generated.blobProof(), null);
        BlobEntry converted = Kzg.withCellProofs(v0);
        assertSame(v0.blobProof(), converted.blobProof(), "the blob proof is kept, for V1");
        assertArrayEquals(expected.getProofs(), converted.cellProofs());
        assertArrayEquals(extension, converted.extensionCells());
        assertTrue(Kzg.verifyCellProofs(blob, converted.commitment(), converted.cellProofs()));
    }
}
