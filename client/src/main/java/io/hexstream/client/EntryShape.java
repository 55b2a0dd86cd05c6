package io.hexstream.client;

/**
 * The entries of each getBlobs method's result (execution-apis {@code src/engine}: cancun.md, osaka.md, amsterdam.md):
 * the structure's name, its members, and whether the result may hold {@code null} in place of an entry.
 */
enum EntryShape {
    /** {@code engine_getBlobsV1}: {@code BlobAndProofV1} ({@code blob}, {@code proof}), {@code null} if missing. */
    V1("BlobAndProofV1", true),
    /** {@code engine_getBlobsV2}: {@code BlobAndProofV2} ({@code blob}, 128 {@code proofs}); all or a null result. */
    V2("BlobAndProofV2", false),
    /** {@code engine_getBlobsV3}: {@code BlobAndProofV2}, {@code null} if missing. */
    V3("BlobAndProofV2", true),
    /**
     * {@code engine_getBlobsV4}: {@code BlobCellsAndProofsV1} ({@code blob_cells}, {@code proofs}: the cells asked,
     * {@code null} where missing), {@code null} if the blob is missing.
     */
    V4("BlobCellsAndProofsV1", true);

    final String structure;
    final boolean nullEntries;

    EntryShape(String structure, boolean nullEntries) {
        this.structure = structure;
        this.nullEntries = nullEntries;
    }

    /** Whether an entry is {@code blob_cells} and {@code proofs} arrays of the same length. */
    boolean cells() {
        return this == V4;
    }
}
