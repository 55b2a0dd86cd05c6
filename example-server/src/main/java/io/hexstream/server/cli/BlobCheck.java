package io.hexstream.server.cli;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.kzg.Kzg;

/**
 * {@code --verify} of one {@code BlobAndProof} entry (EIP-4844, EIP-7594): the blob's KZG commitment must be the one
 * its versioned hash names ({@code 0x01 ‖ sha256(commitment)[1..32]}), and its proofs must verify against it: V1's blob
 * proof with {@code verify_blob_kzg_proof}, V2's and V3's 128 cell proofs with {@code verifyCellKzgProofBatch} over all
 * the blob's cells. Tens of milliseconds a blob: run off the I/O thread.
 */
final class BlobCheck {
    private BlobCheck() {}

    /**
     * Why the entry fails, {@code the blob's KZG commitment is not versioned hash 0x01…}, or {@code null} if it passes.
     *
     * @param blob 131,072 bytes
     * @param proofs one blob proof (48 bytes) or 128 cell proofs (6,144 bytes)
     */
    static String fault(VersionedHash hash, byte[] blob, byte[] proofs) {
        byte[] commitment;
        try {
            commitment = Kzg.commitment(blob);
        } catch (IllegalArgumentException e) {
            return "the blob is not canonical field elements: " + e.getMessage();
        }
        if (!VersionedHash.ofCommitment(commitment).equals(hash)) {
            return "the blob's KZG commitment is not that of versioned hash " + hash;
        }
        if (proofs.length == BlobSizes.PROOF_SIZE) {
            return Kzg.verifyBlobProofs(blob, commitment, proofs, 1) ? null : "the blob proof does not verify";
        }
        return Kzg.verifyCellProofs(blob, commitment, proofs) ? null : "the cell proofs do not verify";
    }
}
