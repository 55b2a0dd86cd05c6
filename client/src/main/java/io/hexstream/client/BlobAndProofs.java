package io.hexstream.client;

import io.netty.buffer.ByteBuf;

/**
 * A {@code BlobAndProofV1} or {@code BlobAndProofV2} entry of a getBlobs result, decoded: the blob's 131,072 bytes, and
 * its proofs back to back, 48 bytes each (V1: its one blob proof; V2 and V3: its 128 cell proofs, cell by cell).
 *
 * <p>Ownership: both buffers (pooled, direct, readable from their reader index) are the receiver's, who releases them
 * ({@link #release()}), on every path.
 *
 * @param blob the blob, 131,072 readable bytes
 * @param proofs the proofs, 48 readable bytes each
 */
public record BlobAndProofs(ByteBuf blob, ByteBuf proofs) {
    /** Releases both buffers. */
    public void release() {
        blob.release();
        proofs.release();
    }
}
