package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponse;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.rpc.ErrorJson;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.rpc.RpcResult;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;

/**
 * The product path: replies described as a {@link JsonBody} (blobs and proofs referenced, not
 * copied or encoded) and streamed by {@link io.hexstream.codec.http.JsonResponseEncoder}.
 */
public final class StreamingRenderer implements ResponseRenderer {

    @Override
    public Object render(HttpRequest request, List<RpcReply> replies, boolean batch) {
        return JsonResponse.of(request, HttpResponseStatus.OK, body(replies, batch));
    }

    /** The response document for {@code replies}. */
    public static JsonBody body(List<RpcReply> replies, boolean batch) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            if (batch) {
                b.beginArray();
            }
            for (RpcReply reply : replies) {
                b.beginObject().name("jsonrpc").string("2.0").name("id").raw(reply.id());
                if (reply.error() != null) {
                    b.name("error").raw(ErrorJson.of(reply));
                } else {
                    result(b.name("result"), reply.result());
                }
                b.endObject();
            }
            if (batch) {
                b.endArray();
            }
            return b.build();
        }
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
                            .hexArray(entry.cellProofs(), 0, BlobEntry.PROOF_SIZE, BlobEntry.CELLS_PER_EXT_BLOB)
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
}
