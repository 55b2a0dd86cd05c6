package io.hexstream.client;

import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import java.util.Arrays;

/**
 * The cells an {@code engine_getBlobsV4} call asks for: its {@code indices_bitarray}, 16 bytes of {@code DATA} read as
 * an SSZ {@code Bitvector[128]}, cell index {@code i} being bit {@code i % 8} (least significant first) of byte
 * {@code i / 8} (execution-apis {@code amsterdam.md}, "engine_getBlobsV4", as its PR #856, geth, reth, Nethermind and
 * the execution spec tests read it). Holds the selected indices in ascending order, as index lists into the three
 * arrays a server keeps a blob in (its bytes, its extension cells 64 to 127, its cell proofs); one instance serves
 * every blob of a call. Immutable.
 */
public final class CellIndices {
    /** {@code indices_bitarray}'s size in bytes: one bit per cell of the extended blob. */
    public static final int BITARRAY_SIZE = BlobSizes.CELLS_PER_EXT_BLOB / 8;

    private final int[] cells;
    private final int inBlob;
    private final int[] extension;
    private final int[] proofsWithoutExtension;

    private CellIndices(int[] cells) {
        this.cells = cells;
        int low = 0;
        while (low < cells.length && cells[low] < BlobSizes.CELLS_IN_BLOB) {
            low++;
        }
        this.inBlob = low;
        this.extension = new int[cells.length - low];
        this.proofsWithoutExtension = cells.clone();
        for (int k = low; k < cells.length; k++) {
            extension[k - low] = cells[k] - BlobSizes.CELLS_IN_BLOB;
            proofsWithoutExtension[k] = -1;
        }
    }

    /**
     * The cells of {@code text}, {@code 0x} and 32 hex digits.
     *
     * @throws HexFormatException if {@code text} is not 16 bytes of {@code DATA}
     */
    public static CellIndices decode(CharSequence text) {
        return of(HexDecoder.decode(text, BITARRAY_SIZE));
    }

    /**
     * The cells of {@code bits}, an SSZ {@code Bitvector[128]}'s 16 bytes (binary getBlobs' {@code BlobsV4Request}).
     *
     * @throws IllegalArgumentException if {@code bits} is not 16 bytes
     */
    public static CellIndices of(byte[] bits) {
        if (bits.length != BITARRAY_SIZE) {
            throw new IllegalArgumentException("a Bitvector[128] is 16 bytes, not " + bits.length);
        }
        int[] selected = new int[BlobSizes.CELLS_PER_EXT_BLOB];
        int count = 0;
        for (int i = 0; i < BlobSizes.CELLS_PER_EXT_BLOB; i++) {
            if ((bits[i / 8] >> (i % 8) & 1) != 0) {
                selected[count++] = i;
            }
        }
        return new CellIndices(Arrays.copyOf(selected, count));
    }

    /** How many cells are selected, 0 to 128. */
    public int count() {
        return cells.length;
    }

    /**
     * How many of the selected cells are cells 0 to 63, the blob's own bytes: the first {@code inBlob()} of
     * {@link #cellList()}.
     */
    public int inBlob() {
        return inBlob;
    }

    /**
     * Index lists for a response writer, shared, not to be modified: the selected cells, ascending (a cell's index in
     * the blob for the first {@link #inBlob()}, its proof's index among the cell proofs for all).
     */
    public int[] cellList() {
        return cells;
    }

    /**
     * The selected cells 64 to 127 as indices into the extension cells (0 to 63), ascending; shared, not to be
     * modified.
     */
    public int[] extensionList() {
        return extension;
    }

    /**
     * Proof indices for an entry whose extension cells are not computed: {@link #cellList()} with {@code -1} (no proof)
     * for each cell from 64 on; shared, not to be modified.
     */
    public int[] proofListWithoutExtension() {
        return proofsWithoutExtension;
    }
}
