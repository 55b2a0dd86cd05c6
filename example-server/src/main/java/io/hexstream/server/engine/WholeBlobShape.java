package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;

/**
 * A shape whose whole element the hex cache can hold ({@link BlobAndProofV1}, {@link BlobAndProofV2}): written from the
 * cached element when that is this shape's, else encoded by {@link #encode}.
 */
abstract class WholeBlobShape implements BlobShape {
    @Override
    public final void write(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded) {
        if (encoded != null && encoded.isA(this)) {
            b.renderedElement(encoded.element());
        } else {
            encode(b, entry);
        }
    }

    /** Writes {@code entry} as its element, its values encoded as the body is produced. */
    abstract void encode(JsonBodyBuilder b, BlobEntry entry);
}
