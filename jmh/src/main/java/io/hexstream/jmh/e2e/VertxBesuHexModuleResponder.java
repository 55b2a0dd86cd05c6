package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.vertx.VertxResponseOutputStream;
import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.server.blob.BlobEntry;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;

/**
 * The {@code vertxBesuHexModule} reply: {@link VertxBesuResponder} with the codec's three changes to Besu's path (the
 * codec README's "In Besu"): {@code BlobAndProofV2} holding tuweni {@code Bytes} (the blob and each cell proof wrapped,
 * not encoded), {@link HexModule} registered on Besu's writer (same features: without {@code FLUSH_PASSED_TO_STREAM},
 * with {@code AUTO_CLOSE_TARGET}), and a {@link VertxResponseOutputStream} where Besu constructs its
 * {@code JsonResponseStreamer}; from the worker thread, as {@code JsonRpcObjectExecutor}.
 */
final class VertxBesuHexModuleResponder implements VertxEngineFront.Responder {
    private static final ObjectWriter WRITER = new ObjectMapper()
            .registerModule(new HexModule())
            .writer()
            .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
            .with(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    /** {@code BlobAndProofV2} with {@code Bytes} fields. */
    record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    /** The {@code Bytes} values of each pooled blob asked for so far; as many as the pool's blobs. */
    private final Map<BlobEntry, BlobAndProofV2> held = new ConcurrentHashMap<>();

    @Override
    public void respond(HttpServerResponse response, String id, List<BlobEntry> entries) throws IOException {
        response.putHeader(HttpHeaders.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
        List<BlobAndProofV2> result = entries == null
                ? null
                : entries.stream().map(this::blobAndProof).toList();
        response.setStatusCode(200);
        try (OutputStream stream = new VertxResponseOutputStream(response)) {
            WRITER.writeValue(stream, new BesuBlobsJson.Response("2.0", id, result));
        }
    }

    private BlobAndProofV2 blobAndProof(BlobEntry entry) {
        BlobAndProofV2 values = held.computeIfAbsent(entry, VertxBesuHexModuleResponder::pooledValues);
        return new BlobAndProofV2(values.blob(), values.proofs().stream().toList());
    }

    private static BlobAndProofV2 pooledValues(BlobEntry entry) {
        List<Bytes48> proofs = new ArrayList<>(BlobSizes.CELLS_PER_EXT_BLOB);
        for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
            int from = p * BlobSizes.PROOF_SIZE;
            proofs.add(Bytes48.wrap(Arrays.copyOfRange(entry.cellProofs(), from, from + BlobSizes.PROOF_SIZE)));
        }
        return new BlobAndProofV2(Bytes.wrap(entry.blob()), List.copyOf(proofs));
    }
}
