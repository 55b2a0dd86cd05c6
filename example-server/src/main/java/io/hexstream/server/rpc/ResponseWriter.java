package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.CellIndices;
import java.util.List;

/**
 * Writes replies as the JSON-RPC response document, a {@link JsonBody}: results by their spec shape
 * ({@code BlobAndProofV1}/{@code V2} with blobs and proofs referenced, not copied or encoded;
 * {@code BlobCellsAndProofsV1} with cells referenced in the blob and its extension cells; strings;
 * {@code DATA}), errors as {@code {"code":…,"message":"…"}}, {@code -32000} also
 * with {@code "data":{"err":"…"}} (execution-apis {@code common.md}, "Errors"). The body's length is
 * exact before its first byte is produced. Stateless, so one instance serves every thread.
 */
public final class ResponseWriter {
    /** The response document for {@code replies}; the caller owns it (write it, or release it). */
    public JsonBody body(Replies replies) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            if (replies.batch()) {
                b.beginArray();
            }
            for (RpcReply reply : replies.replies()) {
                reply(b, reply);
            }
            if (replies.batch()) {
                b.endArray();
            }
            return b.build();
        }
    }

    /** The exact bytes {@code reply} takes in a response document (separators not included). */
    public long length(RpcReply reply) {
        JsonBody one = body(new Replies(List.of(reply), false));
        try {
            return one.length();
        } finally {
            one.release();
        }
    }

    private static void reply(JsonBodyBuilder b, RpcReply reply) {
        b.beginObject().name("jsonrpc").string("2.0").name("id").raw(reply.id());
        if (reply.error() != null) {
            error(b.name("error"), reply);
        } else {
            result(b.name("result"), reply.result());
        }
        b.endObject();
    }

    private static void result(JsonBodyBuilder b, RpcResult result) {
        if (result instanceof RpcResult.BlobsAndProofsV2 v2) {
            if (v2.entries() == null) {
                b.nullValue();
                return;
            }
            b.beginArray();
            for (BlobEntry entry : v2.entries()) {
                if (entry == null) {
                    b.nullValue();
                } else {
                    b.beginObject().name("blob").hex(entry.blob()).name("proofs")
                            .hexArray(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)
                            .endObject();
                }
            }
            b.endArray();
        } else if (result instanceof RpcResult.BlobCellsAndProofsV1 v4) {
            b.beginArray();
            for (BlobEntry entry : v4.entries()) {
                if (entry == null) {
                    b.nullValue();
                } else {
                    blobCellsAndProofs(b, entry, v4.cells());
                }
            }
            b.endArray();
        } else if (result instanceof RpcResult.BlobsAndProofsV1 v1) {
            b.beginArray();
            for (BlobEntry entry : v1.entries()) {
                if (entry == null) {
                    b.nullValue();
                } else {
                    b.beginObject().name("blob").hex(entry.blob()).name("proof").hex(entry.blobProof()).endObject();
                }
            }
            b.endArray();
        } else if (result instanceof RpcResult.Strings strings) {
            b.beginArray();
            strings.values().forEach(b::string);
            b.endArray();
        } else if (result instanceof RpcResult.Data data) {
            b.hex(data.bytes());
        } else {
            throw new IllegalArgumentException("unknown result " + result);
        }
    }

    /**
     * One {@code BlobCellsAndProofsV1}: cells 0 to 63 referenced in the blob, 64 to 127 in the extension
     * cells, proofs in the cell proofs; {@code null} cell and proof for each cell the entry lacks (every
     * cell without cell proofs, 64 to 127 without extension cells).
     */
    private static void blobCellsAndProofs(JsonBodyBuilder b, BlobEntry entry, CellIndices cells) {
        b.beginObject().name("blob_cells").beginArray();
        if (entry.cellProofs() == null) {
            nulls(b, cells.count());
            b.endArray().name("proofs").beginArray();
            nulls(b, cells.count());
        } else {
            int extension = cells.count() - cells.inBlob();
            b.hexElements(entry.blob(), 0, BlobSizes.CELL_SIZE, cells.cellList(), 0, cells.inBlob());
            if (entry.extensionCells() != null) {
                b.hexElements(entry.extensionCells(), 0, BlobSizes.CELL_SIZE, cells.extensionList(), 0, extension);
            } else {
                nulls(b, extension);
            }
            b.endArray().name("proofs").beginArray().hexElements(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE,
                    entry.extensionCells() != null ? cells.cellList() : cells.proofListWithoutExtension(),
                    0, cells.count());
        }
        b.endArray().endObject();
    }

    private static void nulls(JsonBodyBuilder b, int count) {
        for (int i = 0; i < count; i++) {
            b.nullValue();
        }
    }

    /** The {@code error} object of a failed reply. */
    private static void error(JsonBodyBuilder b, RpcReply reply) {
        b.beginObject().name("code").number(reply.error().code()).name("message").string(reply.errorMessage());
        if (reply.error() == RpcError.SERVER_ERROR) {
            b.name("data").beginObject()
                    .name("err").string(reply.detail() != null ? reply.detail() : reply.error().message())
                    .endObject();
        }
        b.endObject();
    }
}
