package io.hexstream.codec.json;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * One stretch of a {@link JsonBody}'s output. Segments are stateless: a reader asks for the bytes from any position, so
 * a body can resume mid-segment in the next chunk.
 */
abstract class Segment {

    /** Exact number of bytes this segment produces. */
    abstract long length();

    /**
     * Writes this segment's output bytes from {@code position} into {@code out} at its absolute indices {@code [index,
     * index + room)} (a chunk's own memory; position and limit untouched).
     *
     * @return the number of bytes written: up to {@code room}, fewer only where a hex digit pair would not fit whole
     *     (so 0 only when {@code room < 2})
     */
    abstract int write(long position, ByteBuffer out, int index, int room);

    /**
     * How many bytes from {@code position} are written by {@link #write} before a region this segment hands on as
     * {@linkplain #slice slices}: 0 at such a region, else at most the bytes left.
     */
    long bytesBeforeSlice(long position) {
        return length() - position;
    }

    /**
     * A retained slice of at most {@code max} bytes of the region at {@code position}, where {@link #bytesBeforeSlice}
     * is 0; the caller owns it.
     */
    ByteBuf slice(long position, int max) {
        throw new UnsupportedOperationException("no slice at " + position);
    }

    /** Releases what the segment retained; called once, by the body's {@code deallocate}. */
    void release() {}

    /** Records {@code hint} on what the segment retained, as {@link io.netty.util.ReferenceCounted#touch(Object)}. */
    void touch(Object hint) {}
}
