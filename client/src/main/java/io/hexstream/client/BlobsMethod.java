package io.hexstream.client;

/**
 * The getBlobs methods and the result entries each answers (execution-apis {@code cancun.md}, {@code osaka.md},
 * {@code amsterdam.md}).
 */
public enum BlobsMethod {
    /** {@code BlobAndProofV1 {blob, proof}} per hash, {@code null} where missing. */
    V1,
    /** {@code BlobAndProofV2 {blob, proofs}} (128 cell proofs) per hash, or {@code null} as a whole. */
    V2,
    /** {@code BlobAndProofV2} per hash, {@code null} where missing. */
    V3,
    /** {@code BlobCellsAndProofsV1 {blob_cells, proofs}} per hash, the cells of {@code indices_bitarray}. */
    V4;

    /** {@code engine_getBlobsV1} to {@code engine_getBlobsV4}. */
    public String methodName() {
        return "engine_getBlobs" + name();
    }

    /** The method of {@code engine_getBlobsV1} to {@code V4}. */
    public static BlobsMethod of(String methodName) {
        for (BlobsMethod method : values()) {
            if (method.methodName().equals(methodName)) {
                return method;
            }
        }
        throw new IllegalArgumentException("not a getBlobs method: " + methodName);
    }

    /** Whether its entries are {@code BlobCellsAndProofsV1} (cells) rather than a blob and its proofs. */
    public boolean answersCells() {
        return this == V4;
    }

    /** The name of its entries' structure in execution-apis: {@code BlobAndProofV2}. */
    String entryName() {
        return switch (this) {
            case V1 -> "BlobAndProofV1";
            case V2, V3 -> "BlobAndProofV2";
            case V4 -> "BlobCellsAndProofsV1";
        };
    }

    /** Whether its result may hold {@code null} in place of an entry (V2 answers all or a {@code null} result). */
    boolean nullEntries() {
        return this != V2;
    }

    /** Proofs per {@code BlobAndProof} entry: V1's blob proof, or the 128 cell proofs of V2 and V3. */
    public int proofsPerBlob() {
        return switch (this) {
            case V1 -> 1;
            case V2, V3 -> BlobSizes.CELLS_PER_EXT_BLOB;
            case V4 -> throw new IllegalStateException("V4 answers cells");
        };
    }
}
