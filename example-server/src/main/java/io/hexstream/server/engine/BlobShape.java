package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;

/**
 * How a getBlobs result writes one pooled entry: {@link BlobAndProofV1}, {@link BlobAndProofV2} or
 * {@link BlobCellsAndProofsV1}. Values are referenced, not copied or encoded: in the entry's arrays, or in its cached
 * digits when the hex cache holds them. Stateless, so one instance serves every thread.
 */
public interface BlobShape {
    /**
     * Writes {@code entry} as one JSON object.
     *
     * @param encoded {@code entry}'s cached digits, to write from instead of encoding; {@code null} if not cached
     */
    void write(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded);
}
