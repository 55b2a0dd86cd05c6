package io.hexstream.server.rpc;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.CellIndices;
import java.util.List;

/** What a method returns, as data, so that each response renderer can write it its own way. */
public sealed interface RpcResult {

    /** {@code engine_getBlobsV1}: {@code BlobAndProofV1 {blob, proof}} per entry, {@code null} where missing. */
    record BlobsAndProofsV1(List<BlobEntry> entries) implements RpcResult {}

    /**
     * {@code engine_getBlobsV2/V3}: {@code BlobAndProofV2 {blob, proofs}} per entry ({@code null}
     * where missing); a {@code null} list is the literal {@code null} result.
     */
    record BlobsAndProofsV2(List<BlobEntry> entries) implements RpcResult {}

    /**
     * {@code engine_getBlobsV4} ({@code amsterdam.md}): {@code BlobCellsAndProofsV1 {blob_cells, proofs}}
     * per entry, the {@code cells} of each, {@code null} where missing; an entry without cell proofs
     * has {@code null} for every cell and proof, one without extension cells for cells 64 to 127.
     */
    record BlobCellsAndProofsV1(List<BlobEntry> entries, CellIndices cells) implements RpcResult {}

    /** An array of strings, e.g. the capabilities. */
    record Strings(List<String> values) implements RpcResult {}

    /** One {@code DATA} value, e.g. a transaction hash. */
    record Data(byte[] bytes) implements RpcResult {}
}
