package io.hexstream.client;

import io.netty.buffer.ByteBuf;

/**
 * A {@code BlobCellsAndProofsV1} entry of an {@code engine_getBlobsV4} result, decoded: the cells answered (of those
 * {@code indices_bitarray} selects; a cell answered {@code null}, with its proof, is left out), their cell indices
 * ascending, the cells back to back (2,048 bytes each) and their cell proofs back to back (48 bytes each), in the same
 * order.
 *
 * <p>Ownership: both buffers (pooled, direct, readable from their reader index) are the receiver's, who releases them
 * ({@link #release()}), on every path.
 *
 * @param indices the cell index of each cell answered, ascending (the receiver's array)
 * @param cells {@code indices.length} × 2,048 readable bytes
 * @param proofs {@code indices.length} × 48 readable bytes
 */
public record CellsAndProofs(int[] indices, ByteBuf cells, ByteBuf proofs) {
    /** Releases both buffers. */
    public void release() {
        cells.release();
        proofs.release();
    }
}
