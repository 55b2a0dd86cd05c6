package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import java.util.List;

/**
 * Writes replies as the JSON-RPC response document, a {@link JsonBody}: results by their spec shape
 * ({@code BlobAndProofV1}/{@code V2} with blobs and proofs referenced, not copied or encoded; strings;
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
