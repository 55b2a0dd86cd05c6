package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;
import io.hexstream.server.cache.HexCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * What the hex cache keeps of a pooled entry: the element the fork's whole-blob getBlobs answers for it, rendered by
 * that very shape (one description of the layout), then a comma. From Osaka on, {@link BlobAndProofV2} (V2 and V3) for
 * an entry with cell proofs, 275,097 bytes; before it, {@link BlobAndProofV1} (V1) for one with a blob proof; nothing
 * for other entries. Both elements begin {@code {"blob":"0x}, so the blob's digits, from which
 * {@link BlobCellsAndProofsV1} picks cells, start at byte 11; rendering checks that they do.
 *
 * @param fork the fork served
 */
public record ElementRenderer(Fork fork) implements HexCache.Renderer {
    /** What comes before the blob's digits in both elements. */
    private static final byte[] OPENING = "{\"blob\":\"0x".getBytes(StandardCharsets.US_ASCII);
    /** Where the blob's digits start in an element: byte 11. */
    static final int BLOB_DIGITS_AT = OPENING.length;

    /** The shape the fork answers {@code entry} in from the cache, or {@code null} for none. */
    private BlobShape shapeFor(BlobEntry entry) {
        if (fork.atLeast(Fork.OSAKA)) {
            return entry.cellProofs() != null ? BlobAndProofV2.SHAPE : null;
        }
        return entry.blobProof() != null ? BlobAndProofV1.SHAPE : null;
    }

    /** @throws IllegalStateException if the shape's element does not begin as {@link #BLOB_DIGITS_AT} says */
    @Override
    public EncodedEntry render(BlobEntry entry, ByteBufAllocator allocator) {
        BlobShape shape = shapeFor(entry);
        if (shape == null) {
            return null;
        }
        JsonBody body;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            shape.write(b, entry, null);
            body = b.build();
        }
        int length = Math.toIntExact(body.length()) + 1;
        ByteBuf element = allocator.directBuffer(length, length);
        JsonBodyInput input = new JsonBodyInput(body);
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(allocator)) != null; ) {
                try {
                    element.writeBytes(chunk);
                } finally {
                    chunk.release();
                }
            }
            element.writeByte(',');
            for (int i = 0; i < OPENING.length; i++) {
                if (element.getByte(i) != OPENING[i]) {
                    throw new IllegalStateException(shape + " no longer begins {\"blob\":\"0x");
                }
            }
        } catch (RuntimeException | Error e) {
            element.release();
            throw e;
        } finally {
            input.close();
        }
        return new EncodedEntry(element, BLOB_DIGITS_AT, shape);
    }
}
