package io.hexstream.codec.json;

import java.nio.ByteBuffer;

/** Structural tokens, names and raw values, already rendered: a region of the body's literal bytes. */
final class LiteralSegment extends Segment {
    private final byte[] bytes;
    private final int offset;
    private final int length;

    LiteralSegment(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    @Override
    long length() {
        return length;
    }

    @Override
    int write(long position, ByteBuffer out, int index, int room) {
        int n = (int) Math.min(room, length - position);
        out.put(index, bytes, offset + (int) position, n);
        return n;
    }
}
