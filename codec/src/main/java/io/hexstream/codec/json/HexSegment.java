package io.hexstream.codec.json;

import java.nio.ByteBuffer;

/**
 * {@code count} hex string values of {@code size} bytes each, lying back to back in one source:
 * {@code "0x…"} alone when {@code count} is 1 and not bracketed, else a JSON array
 * {@code ["0x…","0x…",…]} (without brackets, the comma-separated values alone); without the prefix
 * {@code "…"}. 128 cell proofs of 48 bytes are one segment, not 128. With an index list, value
 * {@code k} is the source's element {@code indices[first + k]} instead of its element {@code k}.
 */
final class HexSegment extends Segment {
    private static final byte[] OPEN_PREFIXED = {'"', '0', 'x'};
    private static final byte[] OPEN_BARE = {'"'};

    /** What opens each element: {@code "0x} or {@code "}. */
    private final byte[] open;
    private final HexSource source;
    private final int size;
    private final int count;
    /** Which element of the source each value is, from {@code first}; {@code null}: value k is element k. */
    private final int[] indices;
    private final int first;
    private final boolean bracketed;
    /** Bytes of one element with the comma that follows it: opening + digits + {@code ",}. */
    private final int stride;
    private final long length;

    HexSegment(HexSource source, int size, int count, boolean bracketed, boolean prefix) {
        this(source, size, null, 0, count, bracketed, prefix);
    }

    /** Values {@code indices[first]} to {@code indices[first + count - 1]} of the source's elements (each in bounds). */
    HexSegment(HexSource source, int size, int[] indices, int first, int count, boolean bracketed, boolean prefix) {
        this.source = source;
        this.size = size;
        this.count = count;
        this.indices = indices;
        this.first = first;
        this.bracketed = bracketed;
        this.open = prefix ? OPEN_PREFIXED : OPEN_BARE;
        this.stride = 2 * size + open.length + 2;
        this.length = (bracketed ? 2 : 0) + (count == 0 ? 0 : (long) count * stride - 1);
    }

    @Override
    long length() {
        return length;
    }

    @Override
    int write(long position, ByteBuffer out, int offset, int room) {
        int written = 0;
        long p = position;
        while (written < room && p < length) {
            int n = writeStep(p, out, offset + written, room - written);
            if (n == 0) {
                break;
            }
            written += n;
            p += n;
        }
        return written;
    }

    /** Writes from {@code p} up to the end of the current token (bracket, opening, digits, closing). */
    private int writeStep(long p, ByteBuffer out, int offset, int room) {
        if (bracketed && (p == 0 || p == length - 1)) {
            out.put(offset, (byte) (p == 0 ? '[' : ']'));
            return 1;
        }
        long inElements = p - (bracketed ? 1 : 0);
        int element = (int) (inElements / stride);
        int within = (int) (inElements % stride);
        if (within < open.length) {
            int n = Math.min(room, open.length - within);
            out.put(offset, open, within, n);
            return n;
        }
        int digits = 2 * size;
        if (within < open.length + digits) {
            int done = (within - open.length) / 2;
            int bytes = Math.min(size - done, room / 2);
            if (bytes > 0) {
                int at = indices == null ? element : indices[first + element];
                source.encode(at * size + done, bytes, out, offset);
            }
            return 2 * bytes;
        }
        out.put(offset, (byte) (within == open.length + digits ? '"' : ','));
        return 1;
    }

    @Override
    void release() {
        source.release();
    }
}
