package io.hexstream.server.blob;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;

/**
 * A blob in the pool with its KZG commitment and the proofs it came with: a blob proof (EIP-4844 network form,
 * {@code BlobAndProofV1}), 128 cell proofs (EIP-7594 form, {@code BlobAndProofV2}), or both. Arrays are never modified
 * once in an entry, so a response streaming them needs no copy and keeps them alive after eviction.
 *
 * @param blob 131,072 bytes
 * @param commitment 48 bytes
 * @param blobProof 48 bytes, or {@code null}
 * @param cellProofs 128 × 48 = 6,144 bytes back to back, or {@code null}
 * @param extensionCells cells 64 to 127 of the extended blob, 64 × 2,048 = 131,072 bytes back to back
 *     ({@code computeCells} from byte 131,072 on), or {@code null} until computed; cells 0 to 63 are the blob itself
 *     ({@link BlobSizes#CELLS_IN_BLOB})
 */
public record BlobEntry(byte[] blob, byte[] commitment, byte[] blobProof, byte[] cellProofs, byte[] extensionCells) {
    public BlobEntry {
        check("blob", blob, BlobSizes.BLOB_SIZE);
        check("commitment", commitment, BlobSizes.COMMITMENT_SIZE);
        if (blobProof != null) {
            check("blob proof", blobProof, BlobSizes.PROOF_SIZE);
        }
        if (cellProofs != null) {
            check("cell proofs", cellProofs, BlobSizes.CELL_PROOFS_SIZE);
        }
        if (blobProof == null && cellProofs == null) {
            throw new IllegalArgumentException("a pooled blob needs a blob proof or cell proofs");
        }
        if (extensionCells != null) {
            check("extension cells", extensionCells, BlobSizes.EXTENSION_CELLS_SIZE);
        }
    }

    /** An entry whose extension cells are not computed yet. */
    public BlobEntry(byte[] blob, byte[] commitment, byte[] blobProof, byte[] cellProofs) {
        this(blob, commitment, blobProof, cellProofs, null);
    }

    /** This entry with {@code extensionCells} (131,072 bytes, cells 64 to 127) added. */
    public BlobEntry withExtensionCells(byte[] extensionCells) {
        return new BlobEntry(blob, commitment, blobProof, cellProofs, extensionCells);
    }

    private static void check(String what, byte[] bytes, int size) {
        if (bytes == null || bytes.length != size) {
            throw new IllegalArgumentException(
                    what + " must be " + size + " bytes, got " + (bytes == null ? "null" : bytes.length));
        }
    }

    public VersionedHash versionedHash() {
        return VersionedHash.ofCommitment(commitment);
    }
}
