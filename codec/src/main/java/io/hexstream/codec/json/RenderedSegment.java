package io.hexstream.codec.json;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * A value already rendered as JSON in a {@link ByteBuf}, handed on as one retained slice of it, never copied
 * ({@link JsonBodyBuilder#renderedElement}). Its buffer ends with the comma that follows the value; the builder keeps
 * that comma when another value follows and drops it at the array's end ({@link #dropComma()}), so a run of such values
 * costs no separator write of its own.
 */
final class RenderedSegment extends Segment {
    private final ByteBuf json;
    private final int start;
    /** The bytes produced: the value and its comma, or the value alone once the comma is dropped. */
    private int length;

    /** Takes ownership of one reference to {@code json}, whose readable bytes are the value and then a comma. */
    RenderedSegment(ByteBuf json) {
        this.json = json;
        this.start = json.readerIndex();
        this.length = json.readableBytes();
    }

    /** Leaves out the trailing comma: the value is the last of its array. Called by the builder, before building. */
    void dropComma() {
        length--;
    }

    @Override
    long length() {
        return length;
    }

    @Override
    long bytesBeforeSlice(long position) {
        return 0;
    }

    @Override
    ByteBuf slice(long position, int max) {
        return json.retainedSlice(start + (int) position, Math.min(max, length - (int) position));
    }

    @Override
    int write(long position, ByteBuffer out, int index, int room) {
        int n = Math.min(room, length - (int) position);
        json.getBytes(start + (int) position, out.duplicate().position(index).limit(index + n));
        return n;
    }

    @Override
    void release() {
        json.release();
    }

    @Override
    void touch(Object hint) {
        json.touch(hint);
    }
}
