package io.hexstream.server.ssz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.hexstream.server.engine.Fork;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * The body of {@code GET /engine/v1/capabilities} (execution-apis #793, {@code refactor.md}, "Capabilities &amp;
 * identification", "Capabilities format"), e.g. under Osaka:
 *
 * <pre>
 * {"supported_forks":["osaka"],"fork_scoped_endpoints":[],"independently_versioned":{"blobs":["v2","v3","v4"]},
 *  "unscoped_endpoints":["capabilities","identity"],"limits":{"blobs.max_versioned_hashes":128}}
 * </pre>
 *
 * {@code supported_forks} is the fork served ({@code --fork}); no fork-scoped endpoint is served; the blob revisions
 * are those the fork serves ({@link io.hexstream.server.engine.GetBlobs.Version#servedUnder});
 * {@code blobs.max_versioned_hashes} is the smaller of {@code --max-blobs-per-request} and 128. No other limit is
 * listed, as no endpoint they bound is served.
 */
final class CapabilitiesDocument {
    private CapabilitiesDocument() {}

    /** The document as UTF-8 bytes. */
    static byte[] json(Fork served, int maxBlobsPerRequest) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("supported_forks");
            json.writeString(served.name().toLowerCase(Locale.ROOT));
            json.writeEndArray();
            json.writeArrayFieldStart("fork_scoped_endpoints");
            json.writeEndArray();
            json.writeObjectFieldStart("independently_versioned");
            json.writeArrayFieldStart("blobs");
            for (SszRoute route : SszRoute.values()) {
                if (route.version().servedUnder(served)) {
                    json.writeString(route.revision());
                }
            }
            json.writeEndArray();
            json.writeEndObject();
            json.writeArrayFieldStart("unscoped_endpoints");
            json.writeString("capabilities");
            json.writeString("identity");
            json.writeEndArray();
            json.writeObjectFieldStart("limits");
            json.writeNumberField(
                    "blobs.max_versioned_hashes", Math.min(maxBlobsPerRequest, BlobsRequest.MAX_BLOBS_REQUEST));
            json.writeEndObject();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream throws none
        }
        return out.toByteArray();
    }
}
