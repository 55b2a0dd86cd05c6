package io.hexstream.server.cache;

import io.hexstream.client.BlobSizes;
import io.hexstream.server.blob.BlobEntry;
import io.netty.buffer.ByteBuf;

/**
 * One pooled {@link BlobEntry} rendered once as the JSON element a getBlobs result holds for it, in pooled direct
 * memory: the element's bytes, then the comma that follows it in an array (so that
 * {@code JsonBodyBuilder.renderedElement} hands a run of them on as slices with nothing between them). The
 * {@linkplain HexCache.Renderer renderer} says which element (for example {@code BlobAndProofV2}: 275,096 bytes and the
 * comma) and where in it the blob's 262,144 digits lie, which a cells result picks from.
 *
 * <p>The accessors give the buffers themselves, not retained: hand them to the body builder, which retains what it
 * keeps and never moves their indices. {@link #blob()} is a view of the element's memory sharing its reference count.
 * Reference-counted through the element: the cache holds one reference, a lookup takes one more ({@link #retain()})
 * until the body being built has retained what it uses.
 */
public final class EncodedEntry {
    private final ByteBuf element;
    private final ByteBuf blob;
    private final Object form;

    /**
     * Takes ownership of one reference to {@code element}.
     *
     * @param element the rendered element and its comma, as the readable bytes
     * @param blobDigitsAt where the blob's digits start among them
     * @param form what the element is (for example the shape that rendered it), compared by {@link #isA}
     * @throws IllegalArgumentException if the blob's digits would not lie within the element, or it does not end with a
     *     comma; {@code element} is released then
     */
    public EncodedEntry(ByteBuf element, int blobDigitsAt, Object form) {
        int digits = 2 * BlobSizes.BLOB_SIZE;
        if (blobDigitsAt < 0
                || blobDigitsAt + digits >= element.readableBytes()
                || element.getByte(element.writerIndex() - 1) != ',') {
            int readable = element.readableBytes();
            element.release();
            throw new IllegalArgumentException(
                    "no blob digits at " + blobDigitsAt + " of a " + readable + "-byte element ending in a comma");
        }
        this.element = element;
        this.blob = element.slice(element.readerIndex() + blobDigitsAt, digits);
        this.form = form;
    }

    /** The rendered element and its comma. */
    public ByteBuf element() {
        return element;
    }

    /** The blob's 262,144 digits, within the element. */
    public ByteBuf blob() {
        return blob;
    }

    /** Whether the element is {@code form}: the one it was rendered as. */
    public boolean isA(Object form) {
        return this.form == form;
    }

    /** Bytes held: the element's buffer (its capacity: the allocator may round it up). */
    int bytes() {
        return element.capacity();
    }

    void retain() {
        element.retain();
    }

    /** Gives back one reference: the cache's on eviction, a lookup's once its body is built. */
    public void release() {
        element.release();
    }
}
