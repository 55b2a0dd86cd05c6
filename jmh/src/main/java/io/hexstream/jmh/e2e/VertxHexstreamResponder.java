package io.hexstream.jmh.e2e;

import io.hexstream.codec.vertx.VertxJsonBodyWriter;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.rpc.RpcResult;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code vertxHexstream} reply: the example server's getBlobsV2 response ({@link ResponseWriter}:
 * a {@code JsonBody} built by {@code JsonBodyBuilder}, blobs and proofs referenced, not encoded), written
 * from the worker thread with {@link VertxJsonBodyWriter#write(HttpServerResponse, io.hexstream.codec.json.JsonBody)}
 * (exact {@code Content-Length}, pooled direct chunks under the write queue's back-pressure, each
 * released when written; the body released however the write ends).
 */
final class VertxHexstreamResponder implements VertxEngineFront.Responder {
    private static final ResponseWriter WRITER = new ResponseWriter();

    @Override
    public void respond(HttpServerResponse response, String id, List<BlobEntry> entries) {
        RpcReply reply = RpcReply.success(id.getBytes(StandardCharsets.UTF_8), new RpcResult.BlobsAndProofsV2(entries));
        VertxJsonBodyWriter.write(response, WRITER.body(new Replies(List.of(reply), false)));
    }
}
