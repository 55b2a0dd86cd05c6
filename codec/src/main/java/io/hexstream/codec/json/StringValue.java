package io.hexstream.codec.json;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * A string value about to be read, as {@link JsonTokenListener#stringStart(StringValue)} sees it: where it is, and the
 * listener's choice of where it goes. One instance per reader, reused for every value; it may be used only during that
 * call. Without a choice the value is read as text, up to the reader's bound.
 *
 * <p>A hex destination takes strict {@code DATA}: {@code 0x}, then an even number of digits {@code [0-9a-fA-F]} (as
 * {@link io.hexstream.codec.HexDecoder}), possibly written with JSON escapes, decoding to between {@code minBytes} and
 * {@code maxBytes} bytes; anything else fails the read with a {@link JsonDecodeException}. The bytes are written as
 * they arrive.
 *
 * <p>Ownership: a destination stays the caller's. The reader writes to it from this call until
 * {@link JsonTokenListener#hexEnd(int)}, or until the read fails; it never retains or releases it.
 */
public final class StringValue {
    static final int TEXT = 0;
    static final int SKIP = 1;
    static final int HEX = 2;

    private final JsonPath path;
    private final TextView nameView = new TextView();
    private boolean open;
    int kind;
    ByteBuf buffer;
    byte[] array;
    int arrayOffset;
    int minBytes;
    int maxBytes;

    StringValue(JsonPath path) {
        this.path = path;
    }

    /** Reset for the next value and open for the listener's call. */
    void open() {
        open = true;
        kind = TEXT;
        buffer = null;
        array = null;
    }

    void close() {
        open = false;
    }

    /** Nesting depth of the value: 1 directly inside the top-level container. */
    public int depth() {
        return path.depth();
    }

    /** The value's index in the innermost container if that is an array, else {@code -1}. */
    public int index() {
        return path.index();
    }

    /** The value's member name if the innermost container is an object, else null; valid during the call. */
    public CharSequence name() {
        return path.name(nameView);
    }

    /** The value's path, {@code result[3].blob} (a new {@code String}: for messages, not the hot path). */
    public String path() {
        return path.render();
    }

    /**
     * Decode the value as hex into {@code dst} at its writer index, advancing it as bytes arrive.
     *
     * @throws IllegalArgumentException if {@code 0 <= minBytes <= maxBytes} does not hold, or {@code dst} cannot grow
     *     by {@code maxBytes}
     */
    public void hex(ByteBuf dst, int minBytes, int maxBytes) {
        checkBounds(minBytes, maxBytes);
        if (maxBytes > dst.maxWritableBytes()) {
            throw new IllegalArgumentException(maxBytes + " bytes do not fit in " + dst);
        }
        choose(HEX, minBytes, maxBytes);
        buffer = dst;
    }

    /**
     * Decode the value as hex into {@code dst} from {@code offset}, at most {@code maxBytes} bytes; bytes of
     * {@code dst} beyond the value's length are not written.
     *
     * @throws IllegalArgumentException if {@code 0 <= minBytes <= maxBytes} does not hold
     * @throws IndexOutOfBoundsException if {@code dst[offset, offset + maxBytes)} is out of bounds
     */
    public void hex(byte[] dst, int offset, int minBytes, int maxBytes) {
        checkBounds(minBytes, maxBytes);
        Objects.checkFromIndexSize(offset, maxBytes, dst.length);
        choose(HEX, minBytes, maxBytes);
        array = dst;
        arrayOffset = offset;
    }

    /** Check the value as hex of {@code minBytes} to {@code maxBytes} bytes, and drop its bytes. */
    public void skipHex(int minBytes, int maxBytes) {
        checkBounds(minBytes, maxBytes);
        choose(HEX, minBytes, maxBytes);
    }

    /** Drop the value, of any length (its JSON and UTF-8 are still checked). */
    public void skip() {
        choose(SKIP, 0, 0);
    }

    /** Read the value as text, {@link JsonTokenListener#string(CharSequence)} (the default). */
    public void text() {
        choose(TEXT, 0, 0);
    }

    private void choose(int kind, int minBytes, int maxBytes) {
        if (!open) {
            throw new IllegalStateException("a string value's destination is chosen during stringStart only");
        }
        this.kind = kind;
        this.minBytes = minBytes;
        this.maxBytes = maxBytes;
        buffer = null;
        array = null;
    }

    private static void checkBounds(int minBytes, int maxBytes) {
        if (minBytes < 0 || maxBytes < minBytes) {
            throw new IllegalArgumentException("bytes from " + minBytes + " to " + maxBytes);
        }
    }
}
