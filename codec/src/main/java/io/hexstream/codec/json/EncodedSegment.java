package io.hexstream.codec.json;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * {@code count} hex string values whose digits are already encoded, {@code elementDigits} ASCII bytes each, in one
 * {@link ByteBuf}: back to back, or picked from it by index; framed as {@link HexValuesSegment} frames them. Elements
 * of at least {@link #MIN_SLICED_DIGITS} digits are {@linkplain #slice handed on} as retained slices of the buffer;
 * shorter ones, and the framing, are copied into the chunks.
 */
final class EncodedSegment extends HexValuesSegment {
    /**
     * Digits of one element from which it is passed on as a slice instead of copied: 16 KiB. A slice costs a buffer
     * object, a write and an iovec; copying 16 KiB costs about what those do, and a blob's 262,144 digits are far above
     * it, a proof's 96 far below (128 proofs copied are one 12 KiB memcpy into a chunk, not 128 writes).
     */
    static final int MIN_SLICED_DIGITS = 16 * 1024;

    private final ByteBuf digits;
    /**
     * {@code digits}' readable bytes, read at absolute indices by {@link #write} to copy short elements: made only for
     * a direct buffer whose elements are copied (a heap buffer is read through its array, a sliced one never), since it
     * is an object per value and a response may hold hundreds.
     */
    private final ByteBuffer view;

    private final int start;
    private final boolean sliced;

    /**
     * Takes ownership of one reference to {@code digits}, whose readable bytes are exactly {@code elementDigits *
     * count}.
     */
    EncodedSegment(ByteBuf digits, int elementDigits, int count, boolean bracketed, boolean prefix) {
        this(digits, elementDigits, null, 0, count, bracketed, prefix);
    }

    /**
     * Takes ownership of one reference to {@code digits}; value {@code k} is the element {@code indices[first + k]}
     * (each index non-negative and within the readable bytes, checked by the caller), or element {@code k} if
     * {@code indices} is {@code null}.
     */
    EncodedSegment(
            ByteBuf digits, int elementDigits, int[] indices, int first, int count, boolean bracketed, boolean prefix) {
        super(elementDigits, indices, first, count, bracketed, prefix);
        this.digits = digits;
        this.start = digits.readerIndex();
        this.sliced = elementDigits >= MIN_SLICED_DIGITS;
        this.view = sliced || digits.hasArray() ? null : digits.nioBuffer(start, digits.readableBytes());
    }

    @Override
    long bytesBeforeSlice(long position) {
        if (!sliced) {
            return length - position;
        }
        long inElements = position - (bracketed ? 1 : 0);
        if (inElements < 0) {
            return Math.min(1 + open.length, length); // "[" then the first element's opening; or "[]"
        }
        int within = (int) (inElements % stride);
        if (inElements >= (length - (bracketed ? 2 : 0))) {
            return length - position; // the closing bracket
        }
        if (within < open.length) {
            return open.length - within;
        }
        if (within < open.length + elementDigits) {
            return 0;
        }
        long next = position + (stride - within) + open.length; // past ",  and the next opening
        return Math.min(next, length) - position;
    }

    @Override
    ByteBuf slice(long position, int max) {
        long inElements = position - (bracketed ? 1 : 0);
        int within = (int) (inElements % stride) - open.length;
        int value = (int) (inElements / stride);
        int n = Math.min(max, elementDigits - within);
        return digits.retainedSlice(start + element(value) * elementDigits + within, n);
    }

    @Override
    int writeDigits(int element, int done, ByteBuffer out, int index, int room) {
        int n = Math.min(room, elementDigits - done);
        int from = element * elementDigits + done;
        if (view != null) {
            out.put(index, view, from, n);
        } else if (digits.hasArray()) {
            out.put(index, digits.array(), digits.arrayOffset() + start + from, n);
        } else { // a sliced element asked for as bytes: JsonBodyInput never does, it takes slices
            digits.getBytes(start + from, out.duplicate().position(index).limit(index + n));
        }
        return n;
    }

    @Override
    void release() {
        digits.release();
    }

    @Override
    void touch(Object hint) {
        digits.touch(hint);
    }
}
