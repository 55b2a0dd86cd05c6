package io.hexstream.jmh.e2e;

import io.hexstream.codec.vertx.VertxJsonBodyWriter;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.BlobAndProofV2;
import io.hexstream.server.engine.BlobsResult;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The {@code vertxHexstream} response: the example server's getBlobsV2 reply ({@link BlobsResult} in an
 * {@link RpcReply}: a {@code JsonBody} built by {@code JsonBodyBuilder}, blobs and proofs referenced, not encoded),
 * written from the worker thread with {@link VertxJsonBodyWriter#write(HttpServerResponse,
 * io.hexstream.codec.json.JsonBody)} (exact {@code Content-Length}, pooled direct chunks under the write queue's
 * back-pressure, each released when written; the body released however the write ends).
 */
final class VertxHexstreamResponder implements VertxEngineFront.Responder {
    private static final ResponseWriter WRITER = new ResponseWriter();

    @Override
    public void respond(HttpServerResponse response, String id, List<BlobEntry> entries) {
        RpcReply reply = RpcReply.success(
                id.getBytes(StandardCharsets.UTF_8), new BlobsResult(entries, BlobAndProofV2.SHAPE, null, Tally.NONE));
        VertxJsonBodyWriter.write(response, WRITER.body(new Replies(List.of(reply), false)));
    }
}
