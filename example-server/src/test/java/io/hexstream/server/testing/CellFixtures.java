package io.hexstream.server.testing;

import ethereum.ckzg4844.CKZG4844JNI;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.kzg.Kzg;
import java.util.Arrays;

/**
 * Cells of blobs as the tests expect them, straight from c-kzg ({@code computeCells}), and V4's
 * {@code indices_bitarray}.
 */
public final class CellFixtures {
    private CellFixtures() {}

    /** All 128 cells of {@code blob}, 128 × 2,048 bytes back to back ({@code CKZG4844JNI.computeCells}). */
    public static byte[] allCells(byte[] blob) {
        Kzg.load();
        return CKZG4844JNI.computeCells(blob);
    }

    /** {@code entry} with its extension cells (cells 64 to 127 of {@link #allCells}). */
    public static BlobEntry withExtensionCells(BlobEntry entry) {
        return entry.withExtensionCells(Arrays.copyOfRange(
                allCells(entry.blob()), BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE + BlobSizes.EXTENSION_CELLS_SIZE));
    }

    /**
     * The {@code indices_bitarray} of {@code cells}: 16 bytes, cell {@code i} as bit {@code i % 8} of byte {@code i /
     * 8}, {@code "0x…"}.
     */
    public static String bitarray(int... cells) {
        byte[] bits = new byte[16];
        for (int cell : cells) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        return Hex.encodeToString(bits, true);
    }
}
