package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.server.blob.BlobEntry;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.util.List;

/**
 * The {@code vertxBesuLike} reply, Besu main's path ({@link BesuBlobsJson}, which names the Besu files and commits): a
 * {@code BlobAndProofV2} per pooled blob holding the pool's values, made one after another as
 * {@code .../internal/methods/engine/EngineGetBlobsV2.java} does ({@link BesuPoolValues}); then {@code Content-Type}
 * and status set and the success response serialised by Besu's writer ({@code BesuJsonModule}: each blob and proof a
 * {@code String} by tuweni's {@code toFastHex} as it is written; without {@code FLUSH_PASSED_TO_STREAM}, with
 * {@code AUTO_CLOSE_TARGET}) into a {@link VertxResponseStreamer}, from the worker thread, as
 * {@code .../api/handlers/JsonRpcObjectExecutor.java} does.
 */
final class VertxBesuResponder implements VertxEngineFront.Responder {
    private static final ObjectWriter WRITER = BesuBlobsJson.writer();

    private final BesuPoolValues pool = new BesuPoolValues();

    @Override
    public void respond(HttpServerResponse response, String id, List<BlobEntry> entries) throws IOException {
        response.putHeader(HttpHeaders.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        List<BesuBlobsJson.BlobAndProofV2> result = entries == null ? null : pool.blobsAndProofs(entries);
        response.setStatusCode(200);
        try (VertxResponseStreamer streamer = new VertxResponseStreamer(response)) {
            WRITER.writeValue(streamer, new BesuBlobsJson.Response("2.0", id, result));
        }
    }
}
