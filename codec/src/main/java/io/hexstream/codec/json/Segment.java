package io.hexstream.codec.json;

import java.nio.ByteBuffer;

/**
 * One stretch of a {@link JsonBody}'s output. Segments are stateless: a reader asks for the bytes
 * from any position, so a body can resume mid-segment in the next chunk.
 */
abstract class Segment {

    /** Exact number of bytes this segment produces. */
    abstract long length();

    /**
     * Writes this segment's output bytes from {@code position} into {@code out} at its absolute indices
     * {@code [index, index + room)} (a chunk's own memory; position and limit untouched).
     *
     * @return the number of bytes written: up to {@code room}, fewer only where a hex digit pair would
     *     not fit whole (so 0 only when {@code room < 2})
     */
    abstract int write(long position, ByteBuffer out, int index, int room);

    /** Releases what the segment retained; called once, by the body's {@code deallocate}. */
    void release() {}
}
