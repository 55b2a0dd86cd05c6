package io.hexstream.client;

/**
 * Told each entry of a getBlobs result as soon as its last byte is decoded, in result order (the order of the versioned
 * hashes asked), on the connection's event loop: it must not block (hand disk or KZG work to an executor). Entries
 * handed over are the listener's even if the response is later found malformed: the call's future then fails, and what
 * was handed over is the listener's to drop.
 */
public interface BlobsListener {

    /**
     * {@code result[index]} is a {@code BlobAndProofV1} (V1) or {@code BlobAndProofV2} (V2, V3); its buffers are the
     * listener's.
     */
    default void blob(int index, BlobAndProofs entry) {
        entry.release();
    }

    /** {@code result[index]} is a {@code BlobCellsAndProofsV1} (V4); its buffers are the listener's. */
    default void cells(int index, CellsAndProofs entry) {
        entry.release();
    }

    /** {@code result[index]} is {@code null}: the blob is missing. */
    default void missing(int index) {}

    /** The result is {@code null} as a whole (V2 when any blob is missing; any version when syncing). */
    default void nullResult() {}
}
