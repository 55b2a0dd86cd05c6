package io.hexstream.codec.jackson;

import com.fasterxml.jackson.core.JsonParser;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import java.io.IOException;
import java.io.Writer;

/**
 * Decodes the current string value of a {@link JsonParser} into a new {@code byte[]}: the text's length from
 * {@link JsonParser#getTextLength()}, then its characters from {@link JsonParser#getText(Writer)}, in the pieces the
 * parser hands over (any length; a digit pair or the prefix may be split between two), each decoded by
 * {@link HexDecoder#decodeDigits(char[], int, int, byte[], int, int)} as it arrives. Nothing is allocated but the
 * result. One sink per thread ({@link HexReader}); not thread-safe.
 */
final class HexCharSink extends Writer {
    /** Characters not yet decoded: the prefix, or the high digit of a pair split between two pieces. */
    private final char[] held = new char[2];
    /** For {@link #write(String, int, int)}: the characters of a {@code String} are decoded from here. */
    private final char[] chars = new char[1024];

    private int heldCount;
    private int length;
    private int expectedBytes;
    /** Characters received so far: the index in the text of the next one. */
    private int index;

    private byte[] dst;

    /**
     * Decodes the parser's current string value.
     *
     * @param expectedBytes the byte count the value must decode to, or a negative value for any
     * @return a new array of the value's bytes
     * @throws HexFormatException if the text is not {@code DATA} of that length
     */
    byte[] decode(JsonParser p, int expectedBytes) throws IOException {
        this.length = p.getTextLength();
        this.expectedBytes = expectedBytes;
        this.index = 0;
        this.heldCount = 0;
        try {
            p.getText(this);
            if (index != length) {
                throw new IllegalStateException("the parser wrote " + index + " of " + length + " characters");
            }
            if (length < 2) {
                HexDecoder.checkedByteCount(length, held[0], held[1], expectedBytes); // throws: no prefix
            }
            return dst;
        } finally {
            dst = null;
        }
    }

    @Override
    public void write(char[] c, int off, int len) {
        if (len > length - index) {
            throw new IllegalStateException("the parser wrote more than the " + length + " characters it announced");
        }
        while (len > 0 && (index < 2 || heldCount == 1)) {
            held[heldCount++] = c[off++];
            len--;
            index++;
            if (index == 2) {
                dst = new byte[HexDecoder.checkedByteCount(length, held[0], held[1], expectedBytes)];
                heldCount = 0;
            } else if (heldCount == 2) {
                HexDecoder.decodeDigits(held, 0, 2, dst, (index - 4) / 2, index - 2);
                heldCount = 0;
            }
        }
        int even = len & ~1;
        if (even > 0) {
            HexDecoder.decodeDigits(c, off, even, dst, (index - 2) / 2, index);
            index += even;
        }
        if (even < len) {
            held[0] = c[off + even];
            heldCount = 1;
            index++;
        }
    }

    @Override
    public void write(String s, int off, int len) {
        for (int done = 0; done < len; ) {
            int k = Math.min(chars.length, len - done);
            s.getChars(off + done, off + done + k, chars, 0);
            write(chars, 0, k);
            done += k;
        }
    }

    @Override
    public void write(int c) {
        chars[0] = (char) c;
        write(chars, 0, 1);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
