package io.hexstream.server.engine;

import io.hexstream.client.BlobSizes;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;

/**
 * {@code BlobAndProofV2} (execution-apis {@code osaka.md}): {@code {"blob":"0x…","proofs":["0x…",…]}}, the blob's
 * 131,072 bytes and its 128 cell proofs of 48 bytes, 275,096 bytes of JSON. The entry has cell proofs (the lookup keeps
 * no other).
 */
public final class BlobAndProofV2 extends WholeBlobShape {
    /** The one instance. */
    public static final BlobAndProofV2 SHAPE = new BlobAndProofV2();

    private BlobAndProofV2() {}

    @Override
    void encode(JsonBodyBuilder b, BlobEntry entry) {
        b.beginObject().name("blob").hex(entry.blob()).name("proofs");
        b.hexArray(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)
                .endObject();
    }
}
