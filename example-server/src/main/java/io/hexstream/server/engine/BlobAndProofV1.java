package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;

/**
 * {@code BlobAndProofV1} (execution-apis {@code cancun.md}): {@code {"blob":"0x…","proof":"0x…"}}, the blob's 131,072
 * bytes and its blob proof's 48. The entry has a blob proof (the lookup keeps no other).
 */
public final class BlobAndProofV1 extends WholeBlobShape {
    /** The one instance. */
    public static final BlobAndProofV1 SHAPE = new BlobAndProofV1();

    private BlobAndProofV1() {}

    @Override
    void encode(JsonBodyBuilder b, BlobEntry entry) {
        b.beginObject()
                .name("blob")
                .hex(entry.blob())
                .name("proof")
                .hex(entry.blobProof())
                .endObject();
    }
}
