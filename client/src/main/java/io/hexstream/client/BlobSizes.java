package io.hexstream.client;

/** The sizes of what a getBlobs response carries, in bytes unless said otherwise, as EIP-4844 and EIP-7594 fix them. */
public final class BlobSizes {
    /** {@code BYTES_PER_BLOB}: 4,096 field elements of 32 bytes. */
    public static final int BLOB_SIZE = 131_072;
    /** A KZG proof, of a blob or of a cell. */
    public static final int PROOF_SIZE = 48;
    /** {@code BYTES_PER_CELL}: 64 field elements of 32 bytes. */
    public static final int CELL_SIZE = 2_048;
    /** {@code CELLS_PER_EXT_BLOB}: cells (so cell proofs) per blob, a count. */
    public static final int CELLS_PER_EXT_BLOB = 128;

    private BlobSizes() {}
}
