package io.hexstream.server.kzg;

import ethereum.ckzg4844.CKZG4844JNI;
import ethereum.ckzg4844.CKZGException;
import ethereum.ckzg4844.CellsAndProofs;
import io.hexstream.server.pool.BlobEntry;

/**
 * KZG for blobs (EIP-4844, EIP-7594) through c-kzg-4844's Java binding, with the mainnet trusted
 * setup that {@code org.web3j:crypto} ships as the resource {@code /trusted_setup.txt} (only the
 * resource is used: web3j 4.14's classes are compiled for Java 21). The setup is
 * loaded once per JVM, on first use; every method is then safe to call from any thread.
 */
public final class Kzg {
    private static final String TRUSTED_SETUP = "/trusted_setup.txt";
    private static volatile boolean loaded;

    private Kzg() {}

    /** Loads the native library and the trusted setup, once. */
    public static void load() {
        if (!loaded) {
            synchronized (Kzg.class) {
                if (!loaded) {
                    CKZG4844JNI.loadNativeLibrary();
                    CKZG4844JNI.loadTrustedSetupFromResource(TRUSTED_SETUP, Kzg.class, 0);
                    loaded = true;
                }
            }
        }
    }

    /**
     * A pool entry for {@code blob} (131,072 bytes of canonical field elements) with its commitment,
     * its blob proof and its 128 cell proofs: about half a second of work on one core.
     */
    public static BlobEntry entryFor(byte[] blob) {
        load();
        byte[] commitment = CKZG4844JNI.blobToKzgCommitment(blob);
        byte[] blobProof = CKZG4844JNI.computeBlobKzgProof(blob, commitment);
        CellsAndProofs cells = CKZG4844JNI.computeCellsAndKzgProofs(blob);
        return new BlobEntry(blob, commitment, blobProof, cells.getProofs());
    }

    public static byte[] commitment(byte[] blob) {
        load();
        return CKZG4844JNI.blobToKzgCommitment(blob);
    }

    /**
     * {@code verifyCellKzgProofBatch} over all 128 cells of one blob against its commitment; false also
     * when a proof is not a valid curve point (c-kzg refuses those with an exception).
     */
    public static boolean verifyCellProofs(byte[] blob, byte[] commitment, byte[] cellProofs) {
        load();
        byte[] cells = CKZG4844JNI.computeCells(blob);
        int n = BlobEntry.CELLS_PER_EXT_BLOB;
        byte[] commitments = new byte[n * BlobEntry.COMMITMENT_SIZE];
        long[] indices = new long[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(commitment, 0, commitments, i * BlobEntry.COMMITMENT_SIZE, BlobEntry.COMMITMENT_SIZE);
            indices[i] = i;
        }
        try {
            return CKZG4844JNI.verifyCellKzgProofBatch(commitments, indices, cells, cellProofs);
        } catch (CKZGException e) {
            return false;
        }
    }
}
