package io.hexstream.codec.json;

import java.nio.ByteBuffer;

/**
 * The framing that {@link HexSegment} (digits encoded as produced) and {@link EncodedSegment} (digits given encoded)
 * share: {@code count} hex string values of {@code elementDigits} digits each, {@code "0x…"} alone when {@code count}
 * is 1 and not bracketed, else {@code ["0x…","0x…",…]} (without brackets, the comma-separated values alone); without
 * the prefix {@code "…"}. With an index list, value {@code k} is element {@code indices[first + k]} of the source
 * instead of its element {@code k}. Subclasses write the digits of one element; the brackets, openings, quotes and
 * commas are written here.
 */
abstract class HexValuesSegment extends Segment {
    private static final byte[] OPEN_PREFIXED = {'"', '0', 'x'};
    private static final byte[] OPEN_BARE = {'"'};

    /** What opens each element: {@code "0x} or {@code "}. */
    final byte[] open;

    final int elementDigits;
    /** Which element of the source each value is, from {@code first}; {@code null}: value k is element k. */
    private final int[] indices;

    private final int first;
    final boolean bracketed;
    /** Bytes of one element with the comma that follows it: opening + digits + {@code ",}. */
    final int stride;

    final long length;

    HexValuesSegment(int elementDigits, int[] indices, int first, int count, boolean bracketed, boolean prefix) {
        this.elementDigits = elementDigits;
        this.indices = indices;
        this.first = first;
        this.bracketed = bracketed;
        this.open = prefix ? OPEN_PREFIXED : OPEN_BARE;
        this.stride = elementDigits + open.length + 2;
        this.length = (bracketed ? 2 : 0) + (count == 0 ? 0 : (long) count * stride - 1);
    }

    @Override
    final long length() {
        return length;
    }

    /** The source's element that value {@code k} is. */
    final int element(int k) {
        return indices == null ? k : indices[first + k];
    }

    /**
     * Writes digits {@code [done, done + n)} of the source's element {@code element} into {@code out} from its absolute
     * index {@code index}, {@code n} at most {@code room} and the digits left.
     *
     * @return {@code n}: fewer than the room only where a whole digit pair would not fit (so 0 only when {@code room <
     *     2})
     */
    abstract int writeDigits(int element, int done, ByteBuffer out, int index, int room);

    @Override
    final int write(long position, ByteBuffer out, int index, int room) {
        int written = 0;
        long p = position;
        while (written < room && p < length) {
            int n = writeStep(p, out, index + written, room - written);
            if (n == 0) {
                break;
            }
            written += n;
            p += n;
        }
        return written;
    }

    /** Writes from {@code p} up to the end of the current token (bracket, opening, digits, closing). */
    private int writeStep(long p, ByteBuffer out, int index, int room) {
        if (bracketed && (p == 0 || p == length - 1)) {
            out.put(index, (byte) (p == 0 ? '[' : ']'));
            return 1;
        }
        long inElements = p - (bracketed ? 1 : 0);
        int value = (int) (inElements / stride);
        int within = (int) (inElements % stride);
        if (within < open.length) {
            int n = Math.min(room, open.length - within);
            out.put(index, open, within, n);
            return n;
        }
        if (within < open.length + elementDigits) {
            return writeDigits(element(value), within - open.length, out, index, room);
        }
        out.put(index, (byte) (within == open.length + elementDigits ? '"' : ','));
        return 1;
    }
}
