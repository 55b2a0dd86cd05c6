package io.hexstream.jmh;

import io.hexstream.client.BlobSizes;
import java.util.Arrays;
import java.util.Random;

/**
 * The blobs a getBlobsV2 benchmark serves: {@code count} blobs ({@value BlobSizes#BLOB_SIZE} bytes each) and each one's
 * {@value BlobSizes#CELLS_PER_EXT_BLOB} cell proofs ({@value BlobSizes#PROOF_SIZE} bytes each, concatenated), random
 * bytes from the seed of {@code count}: the same bytes in every benchmark of that size.
 *
 * @param blobs the blobs, in order
 * @param cellProofs each blob's cell proofs, concatenated
 */
record PoolBlobs(byte[][] blobs, byte[][] cellProofs) {
    /** {@code count} blobs and their proofs, blob then proofs for each, from {@code Random(0x5EED_0000 + count)}. */
    static PoolBlobs random(int count) {
        Random random = new Random(0x5EED_0000L + count);
        byte[][] blobs = new byte[count][BlobSizes.BLOB_SIZE];
        byte[][] proofs = new byte[count][BlobSizes.CELL_PROOFS_SIZE];
        for (int i = 0; i < count; i++) {
            random.nextBytes(blobs[i]);
            random.nextBytes(proofs[i]);
        }
        return new PoolBlobs(blobs, proofs);
    }

    /** Proof {@code index} of blob {@code blob}, a copy. */
    byte[] proof(int blob, int index) {
        return Arrays.copyOfRange(cellProofs[blob], index * BlobSizes.PROOF_SIZE, (index + 1) * BlobSizes.PROOF_SIZE);
    }
}
