package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.BlobSizes;
import io.hexstream.jmh.JacksonStrings;
import io.hexstream.server.blob.BlobEntry;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.util.List;

/**
 * The {@code vertxBesuLike} reply, Besu's path: a {@code BlobAndProofV2} per blob with the blob and each cell proof a
 * {@code String} made by the {@code char[]} method, the blobs in a {@code parallelStream}
 * ({@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/methods/engine/EngineGetBlobsV2.java}, {@code .../internal/results/BlobAndProofV2.java};
 * {@link JacksonStrings}, which makes the proofs of each blob in a nested parallel stream, as that file's
 * {@code createBlobAndProofV2} does); then {@code Content-Type} and status set and the success response serialised by
 * {@code ObjectWriter.writeValue} (without {@code FLUSH_PASSED_TO_STREAM}, with {@code AUTO_CLOSE_TARGET}) into a
 * {@link VertxResponseStreamer}, from the worker thread, as {@code .../api/handlers/JsonRpcObjectExecutor.java} does.
 */
final class VertxBesuResponder implements VertxEngineFront.Responder {
    private static final ObjectWriter WRITER = new ObjectMapper()
            .writer()
            .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
            .with(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    @Override
    public void respond(HttpServerResponse response, String id, List<BlobEntry> entries) throws IOException {
        response.putHeader(HttpHeaders.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        List<JacksonStrings.BlobAndProofV2> result = entries == null
                ? null
                : entries.parallelStream()
                        .map(entry -> JacksonStrings.blobAndProof(
                                entry.blob(), entry.cellProofs(), BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB))
                        .toList();
        response.setStatusCode(200);
        try (VertxResponseStreamer streamer = new VertxResponseStreamer(response)) {
            WRITER.writeValue(streamer, new JacksonStrings.Response("2.0", id, result));
        }
    }
}
