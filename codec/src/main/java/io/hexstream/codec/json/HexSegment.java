package io.hexstream.codec.json;

import java.nio.ByteBuffer;

/**
 * {@code count} hex string values of {@code size} bytes each, lying back to back in one source (or picked from it by
 * index), encoded as they are produced and framed as {@link HexValuesSegment} frames them. 128 cell proofs of 48 bytes
 * are one segment, not 128.
 */
final class HexSegment extends HexValuesSegment {
    private final HexSource source;
    private final int size;

    HexSegment(HexSource source, int size, int count, boolean bracketed, boolean prefix) {
        this(source, size, null, 0, count, bracketed, prefix);
    }

    /**
     * Values {@code indices[first]} to {@code indices[first + count - 1]} of the source's elements (each in bounds).
     */
    HexSegment(HexSource source, int size, int[] indices, int first, int count, boolean bracketed, boolean prefix) {
        super(2 * size, indices, first, count, bracketed, prefix);
        this.source = source;
        this.size = size;
    }

    /** Encodes whole bytes only: {@code done} is even, and an odd room leaves its last byte for the next chunk. */
    @Override
    int writeDigits(int element, int done, ByteBuffer out, int index, int room) {
        int from = done / 2;
        int bytes = Math.min(size - from, room / 2);
        if (bytes > 0) {
            source.encode(element * size + from, bytes, out, index);
        }
        return 2 * bytes;
    }

    @Override
    void release() {
        source.release();
    }

    @Override
    void touch(Object hint) {
        source.touch(hint);
    }
}
