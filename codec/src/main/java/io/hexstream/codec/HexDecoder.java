package io.hexstream.codec;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Objects;

/**
 * Strict decoding of {@code 0x}-prefixed hex text: {@code 0x}, then an even number of digits {@code [0-9a-fA-F]}, two
 * per byte, high digit first; nothing else (no whitespace, no {@code 0X}, no odd digit count). This is the Ethereum
 * Engine API's {@code DATA} (execution-apis {@code src/engine/common.md}, "Encoding"), which is why the prefix is
 * required.
 *
 * <p>Every fault is a {@link HexFormatException} naming the first offending index and character (the index counts the
 * prefix), or the length fault. The whole text is validated before any output byte is written.
 */
public final class HexDecoder {
    /** ASCII code point to digit value, {@code -1} for anything that is not {@code [0-9a-fA-F]}. */
    private static final byte[] DIGIT_VALUES = new byte[128];

    static {
        Arrays.fill(DIGIT_VALUES, (byte) -1);
        for (int d = 0; d < 16; d++) {
            byte digit = PairTable.TABLE[2 * d + 1];
            DIGIT_VALUES[digit] = (byte) d;
            DIGIT_VALUES[Character.toUpperCase(digit)] = (byte) d;
        }
    }

    /** Byte value to digit value, {@code -1} for anything that is not {@code [0-9a-fA-F]}: the low digit of a pair. */
    private static final int[] LOW = new int[256];
    /**
     * Byte value to digit value shifted left by 4, {@code -256} for a non-digit: the high digit of a pair, so that
     * {@code HIGH[a] | LOW[b]} is the pair's byte, or negative when either is not a digit.
     */
    private static final int[] HIGH = new int[256];

    static {
        for (int c = 0; c < 256; c++) {
            int value = c < 128 ? DIGIT_VALUES[c] : -1;
            LOW[c] = value;
            HIGH[c] = value < 0 ? -256 : value << 4;
        }
    }

    private HexDecoder() {}

    /** The value of the hex digit {@code c} ({@code [0-9a-fA-F]}), or {@code -1} for any other value. */
    public static int digit(int c) {
        return c >= 0 && c < 128 ? DIGIT_VALUES[c] : -1;
    }

    /**
     * Decodes the longest run of digit pairs ({@code [0-9a-fA-F]}, no prefix, high digit first) at the start of
     * {@code src[srcOffset, srcOffset + length)}, one byte per pair, into {@code dst} from {@code dstOffset}: the
     * streaming step of strict decoding, for text that arrives in pieces. It stops before the first pair holding any
     * other byte, or before a last single byte; the caller looks at what follows. The bulk goes through the kernel
     * named by {@link Hex#kernel()}.
     *
     * @return the number of pairs decoded (bytes written to {@code dst}); {@code dst} beyond them may have been written
     *     too, up to {@code length / 2} bytes from {@code dstOffset}
     * @throws IndexOutOfBoundsException if the source region, or {@code length / 2} bytes of {@code dst} from
     *     {@code dstOffset}, is out of bounds (nothing is written)
     */
    public static int decodeDigits(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        int pairs = length >>> 1;
        Objects.checkFromIndexSize(dstOffset, pairs, dst.length);
        int done = Hex.VECTOR ? HexVector.decode(src, srcOffset, pairs, dst, dstOffset) : 0;
        final int[] high = HIGH;
        final int[] low = LOW;
        // Four pairs a step, one test for all four (a non-digit makes its pair negative); the step that meets a
        // non-digit stores nothing, and the pair-by-pair loop finds where to stop.
        for (int i = srcOffset + 2 * done, end = pairs - 4; done <= end; done += 4, i += 8) {
            int v0 = high[src[i] & 0xFF] | low[src[i + 1] & 0xFF];
            int v1 = high[src[i + 2] & 0xFF] | low[src[i + 3] & 0xFF];
            int v2 = high[src[i + 4] & 0xFF] | low[src[i + 5] & 0xFF];
            int v3 = high[src[i + 6] & 0xFF] | low[src[i + 7] & 0xFF];
            if ((v0 | v1 | v2 | v3) < 0) {
                break;
            }
            int o = dstOffset + done;
            dst[o] = (byte) v0;
            dst[o + 1] = (byte) v1;
            dst[o + 2] = (byte) v2;
            dst[o + 3] = (byte) v3;
        }
        for (int i = srcOffset + 2 * done; done < pairs; done++, i += 2) {
            int value = high[src[i] & 0xFF] | low[src[i + 1] & 0xFF];
            if (value < 0) {
                break;
            }
            dst[dstOffset + done] = (byte) value;
        }
        return done;
    }

    /**
     * Decodes {@code 0x}-prefixed hex text of any even digit count: {@code "0x"} gives an empty array, {@code "0x00aB"}
     * the bytes {@code 0x00 0xab}.
     *
     * @return a new array of {@code (hex.length() - 2) / 2} bytes
     * @throws HexFormatException naming the first offending index and character, or the length fault; also for
     *     {@code null}
     */
    public static byte[] decode(CharSequence hex) {
        return decode(hex, -1);
    }

    /**
     * Decodes {@code 0x}-prefixed hex text of exactly {@code expectedBytes} bytes ({@code 2 + 2 * expectedBytes}
     * characters; e.g. 32 for an Engine API versioned hash), as {@link #decode(CharSequence)}; a negative
     * {@code expectedBytes} accepts any length.
     *
     * @return a new array of {@code expectedBytes} bytes
     * @throws HexFormatException if the text is malformed or decodes to another length
     */
    public static byte[] decode(CharSequence hex, int expectedBytes) {
        if (hex == null) {
            throw new HexFormatException("hex text is null", -1);
        }
        int length = hex.length();
        checkPrefix(length, length > 0 ? hex.charAt(0) : 0, length > 1 ? hex.charAt(1) : 0);
        int byteCount = checkedByteCount(length, expectedBytes);
        for (int i = 2; i < length; i++) {
            checkDigit(hex.charAt(i), i);
        }
        byte[] out = new byte[byteCount];
        for (int i = 2, o = 0; i < length; i += 2, o++) {
            out[o] = digitPair(hex.charAt(i), hex.charAt(i + 1));
        }
        return out;
    }

    /**
     * Decodes the ASCII text {@code src[index, index + length)} ({@code 0x} included, as {@link #decode(CharSequence)})
     * straight into {@code dst} from {@code dstOffset}, without a {@code String}. The whole text is validated before
     * the first byte of {@code dst} is written. Indices in errors are relative to {@code index}. {@code src}'s indices
     * are not moved.
     *
     * @return the number of bytes written, {@code (length - 2) / 2}
     * @throws HexFormatException if the text is malformed (nothing is written)
     * @throws IndexOutOfBoundsException if either region is out of bounds (nothing is written)
     */
    public static int decode(ByteBuf src, int index, int length, byte[] dst, int dstOffset) {
        Objects.checkFromIndexSize(index, length, src.capacity());
        checkPrefix(
                length, length > 0 ? src.getUnsignedByte(index) : 0, length > 1 ? src.getUnsignedByte(index + 1) : 0);
        int byteCount = checkedByteCount(length, -1);
        Objects.checkFromIndexSize(dstOffset, byteCount, dst.length);
        for (int i = 2; i < length; i++) {
            checkDigit((char) src.getUnsignedByte(index + i), i);
        }
        for (int i = index + 2, o = dstOffset, end = index + length; i < end; i += 2, o++) {
            dst[o] = digitPair(src.getByte(i), src.getByte(i + 1));
        }
        return byteCount;
    }

    /**
     * Checks the prefix and the length of a text that is decoded in pieces ({@link #decodeDigits(char[], int, int,
     * byte[], int, int)}), as {@link #decode(CharSequence, int)} checks them before it decodes: {@code length} is the
     * whole text's length in characters (the prefix counted), {@code first} and {@code second} its first two characters
     * (ignored where the text is shorter).
     *
     * @param expectedBytes the byte count the text must decode to, or a negative value for any
     * @return the number of bytes the text decodes to, {@code (length - 2) / 2}
     * @throws HexFormatException for a missing or wrong prefix, an odd digit count, or another byte count than
     *     {@code expectedBytes}, with the message {@link #decode(CharSequence, int)} gives
     */
    public static int checkedByteCount(int length, char first, char second, int expectedBytes) {
        checkPrefix(length, first, second);
        return checkedByteCount(length, expectedBytes);
    }

    /**
     * Decodes {@code length} hex digits {@code src[offset, offset + length)}, a piece of a text after its {@code 0x}
     * prefix (checked by {@link #checkedByteCount(int, char, char, int)}), straight into {@code dst} from
     * {@code dstOffset}: {@code length / 2} bytes. One pass: each digit pair is validated and written in turn, so on a
     * fault the bytes of the pairs before it have been written.
     *
     * @param length an even number of digits
     * @param textIndex the index of {@code src[offset]} in the whole text (the prefix counted), for the error
     * @throws HexFormatException naming the first offending character and its index in the whole text
     * @throws IllegalArgumentException if {@code length} is odd
     * @throws IndexOutOfBoundsException if either region is out of bounds (nothing is written)
     */
    public static void decodeDigits(char[] src, int offset, int length, byte[] dst, int dstOffset, int textIndex) {
        if ((length & 1) != 0) {
            throw new IllegalArgumentException("a piece of digits must have an even length, got " + length);
        }
        Objects.checkFromIndexSize(offset, length, src.length);
        Objects.checkFromIndexSize(dstOffset, length / 2, dst.length);
        final byte[] values = DIGIT_VALUES;
        for (int i = offset, o = dstOffset, end = offset + length; i < end; i += 2, o++) {
            char high = src[i];
            char low = src[i + 1];
            int h = high < 128 ? values[high] : -1;
            int l = low < 128 ? values[low] : -1;
            if ((h | l) < 0) {
                int bad = h < 0 ? i : i + 1;
                checkDigit(src[bad], textIndex + bad - offset);
            }
            dst[o] = (byte) (h << 4 | l);
        }
    }

    /** Two validated digits as one byte. */
    private static byte digitPair(int high, int low) {
        return (byte) (DIGIT_VALUES[high] << 4 | DIGIT_VALUES[low]);
    }

    private static void checkPrefix(int length, int first, int second) {
        if (length < 2) {
            throw new HexFormatException(
                    "expected 0x prefix, but the text has " + length + " character" + (length == 1 ? "" : "s"),
                    length == 1 && first != '0' ? 0 : -1);
        }
        if (first != '0') {
            throw new HexFormatException("expected '0' of the 0x prefix at index 0, found " + describe(first), 0);
        }
        if (second != 'x') {
            throw new HexFormatException("expected 'x' of the 0x prefix at index 1, found " + describe(second), 1);
        }
    }

    private static int checkedByteCount(int length, int expectedBytes) {
        int digits = length - 2;
        if (expectedBytes >= 0 && digits != 2 * expectedBytes) {
            throw new HexFormatException(
                    "expected " + expectedBytes + " bytes (" + (2 + 2 * expectedBytes) + " characters with 0x), got "
                            + length + " characters",
                    -1);
        }
        if ((digits & 1) != 0) {
            throw new HexFormatException("expected an even number of hex digits after 0x, got " + digits, -1);
        }
        return digits / 2;
    }

    private static void checkDigit(char c, int index) {
        if (c >= 128 || DIGIT_VALUES[c] < 0) {
            throw new HexFormatException("invalid hex character " + describe(c) + " at index " + index, index);
        }
    }

    private static String describe(int c) {
        return c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("U+%04X", c);
    }
}
