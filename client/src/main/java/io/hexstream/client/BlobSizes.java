package io.hexstream.client;

/**
 * The sizes of everything a blob comes with, in bytes unless said otherwise, as EIP-4844 and EIP-7594 (PeerDAS) fix
 * them; every other class takes them from here.
 */
public final class BlobSizes {
    /** {@code BYTES_PER_BLOB}: 4,096 field elements of 32 bytes. */
    public static final int BLOB_SIZE = 131_072;
    /** A KZG commitment (a compressed G1 point). */
    public static final int COMMITMENT_SIZE = 48;
    /** A KZG proof, of a blob or of a cell. */
    public static final int PROOF_SIZE = 48;
    /** {@code CELLS_PER_EXT_BLOB}: cells (so cell proofs) per blob. */
    public static final int CELLS_PER_EXT_BLOB = 128;
    /** {@code BYTES_PER_CELL}: 64 field elements of 32 bytes. */
    public static final int CELL_SIZE = 2_048;
    /**
     * Cells 0 to 63 of the extended blob: the blob's own bytes, in order (the extension is systematic and in
     * bit-reversed order), so they are never stored apart from the blob.
     */
    public static final int CELLS_IN_BLOB = BLOB_SIZE / CELL_SIZE;
    /** Cells 64 to 127, the extension that {@code computeCells} adds, back to back: 131,072 bytes. */
    public static final int EXTENSION_CELLS_SIZE = (CELLS_PER_EXT_BLOB - CELLS_IN_BLOB) * CELL_SIZE;
    /** The 128 cell proofs of a blob, back to back. */
    public static final int CELL_PROOFS_SIZE = CELLS_PER_EXT_BLOB * PROOF_SIZE;
    /** A versioned hash. */
    public static final int VERSIONED_HASH_SIZE = 32;
    /** A transaction hash. */
    public static final int TRANSACTION_HASH_SIZE = 32;
    /** EIP-7594's {@code MAX_BLOBS_PER_TX}: the default of {@code --max-blobs-per-tx} (a count, not bytes). */
    public static final int MAX_BLOBS_PER_TX = 6;

    private BlobSizes() {}
}
