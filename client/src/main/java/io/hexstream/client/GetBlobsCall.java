package io.hexstream.client;

import io.hexstream.codec.Hex;
import java.util.List;

/**
 * One getBlobs call, whatever the transport: the method, the versioned hashes asked for, and for V4 its
 * {@code indices_bitarray} (16 bytes; cell {@code i} is bit {@code i % 8} of byte {@code i / 8}).
 *
 * @param method the method
 * @param hashes the versioned hashes, in the order the result answers them
 * @param cells V4's {@code indices_bitarray}, {@value CellIndices#BITARRAY_SIZE} bytes; {@code null} for V1 to V3
 */
public record GetBlobsCall(BlobsMethod method, List<VersionedHash> hashes, byte[] cells) {
    public GetBlobsCall {
        hashes = List.copyOf(hashes);
        if (method.answersCells() != (cells != null)) {
            throw new IllegalArgumentException(
                    method.answersCells()
                            ? "V4 takes indices_bitarray"
                            : method.methodName() + " takes no indices_bitarray");
        }
        if (cells != null && cells.length != CellIndices.BITARRAY_SIZE) {
            throw new IllegalArgumentException(
                    "indices_bitarray is " + CellIndices.BITARRAY_SIZE + " bytes, got " + cells.length);
        }
        cells = cells == null ? null : cells.clone();
    }

    /** The cell indices {@link #cells()} selects, ascending; empty for V1 to V3. */
    public int[] selectedCells() {
        return cells == null
                ? new int[0]
                : CellIndices.decode(Hex.encodeToString(cells, true)).cellList().clone();
    }

    @Override
    public byte[] cells() {
        return cells == null ? null : cells.clone();
    }
}
