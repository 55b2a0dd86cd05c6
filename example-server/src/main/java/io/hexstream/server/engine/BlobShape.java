package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;

/**
 * How a getBlobs result writes one pooled entry: {@link BlobAndProofV1}, {@link BlobAndProofV2} or
 * {@link BlobCellsAndProofsV1}. Values are referenced, not copied: in the entry's arrays, encoded as the body is
 * produced, or in its cached element when the hex cache holds it ({@link ElementRenderer}). Stateless, so one instance
 * serves every thread.
 */
public interface BlobShape {
    /**
     * Writes {@code entry} as one JSON object, an element of the open array.
     *
     * @param encoded {@code entry}'s cached element, to write from instead of encoding where it serves this shape;
     *     {@code null} if not cached
     */
    void write(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded);
}
