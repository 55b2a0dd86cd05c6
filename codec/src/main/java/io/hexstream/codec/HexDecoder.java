package io.hexstream.codec;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Objects;

/**
 * Strict decoding of {@code 0x}-prefixed hex text: {@code 0x}, then an even number of digits
 * {@code [0-9a-fA-F]}, two per byte, high digit first; nothing else (no whitespace, no {@code 0X}, no
 * odd digit count). This is the Ethereum Engine API's {@code DATA} (execution-apis
 * {@code src/engine/common.md}, "Encoding"), which is why the prefix is required.
 *
 * <p>Every fault is a {@link HexFormatException} naming the first offending index and character (the
 * index counts the prefix), or the length fault. The whole text is validated before any output byte
 * is written.
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
     * Byte value to digit value shifted left by 4, {@code -256} for a non-digit: the high digit of a pair,
     * so that {@code HIGH[a] | LOW[b]} is the pair's byte, or negative when either is not a digit.
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
     * Decodes the longest run of digit pairs ({@code [0-9a-fA-F]}, no prefix, high digit first) at the
     * start of {@code src[srcOffset, srcOffset + length)}, one byte per pair, into {@code dst} from
     * {@code dstOffset}: the streaming step of strict decoding, for text that arrives in pieces. It
     * stops before the first pair holding any other byte, or before a last single byte; the caller looks
     * at what follows. The bulk goes through the kernel named by {@link Hex#kernel()}.
     *
     * @return the number of pairs decoded (bytes written to {@code dst}); {@code dst} beyond them may
     *     have been written too, up to {@code length / 2} bytes from {@code dstOffset}
     * @throws IndexOutOfBoundsException if the source region, or {@code length / 2} bytes of
     *     {@code dst} from {@code dstOffset}, is out of bounds (nothing is written)
     */
    public static int decodeDigits(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        int pairs = length >>> 1;
        Objects.checkFromIndexSize(dstOffset, pairs, dst.length);
        int done = Hex.VECTOR ? HexVector.decode(src, srcOffset, pairs, dst, dstOffset) : 0;
        final int[] high = HIGH;
        final int[] low = LOW;
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
     * Decodes {@code 0x}-prefixed hex text of any even digit count: {@code "0x"} gives an empty array,
     * {@code "0x00aB"} the bytes {@code 0x00 0xab}.
     *
     * @return a new array of {@code (hex.length() - 2) / 2} bytes
     * @throws HexFormatException naming the first offending index and character, or the length fault;
     *     also for {@code null}
     */
    public static byte[] decode(CharSequence hex) {
        return decode(hex, -1);
    }

    /**
     * Decodes {@code 0x}-prefixed hex text of exactly {@code expectedBytes} bytes ({@code 2 + 2 *
     * expectedBytes} characters; e.g. 32 for an Engine API versioned hash), as
     * {@link #decode(CharSequence)}; a negative {@code expectedBytes} accepts any length.
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
     * Decodes the ASCII text {@code src[index, index + length)} ({@code 0x} included, as
     * {@link #decode(CharSequence)}) straight into {@code dst} from {@code dstOffset}, without a {@code String}. The whole
     * text is validated before the first byte of {@code dst} is written. Indices in errors are relative
     * to {@code index}. {@code src}'s indices are not moved.
     *
     * @return the number of bytes written, {@code (length - 2) / 2}
     * @throws HexFormatException if the text is malformed (nothing is written)
     * @throws IndexOutOfBoundsException if either region is out of bounds (nothing is written)
     */
    public static int decode(ByteBuf src, int index, int length, byte[] dst, int dstOffset) {
        Objects.checkFromIndexSize(index, length, src.capacity());
        checkPrefix(length, length > 0 ? src.getUnsignedByte(index) : 0,
                length > 1 ? src.getUnsignedByte(index + 1) : 0);
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

    /** Two validated digits as one byte. */
    private static byte digitPair(int high, int low) {
        return (byte) (DIGIT_VALUES[high] << 4 | DIGIT_VALUES[low]);
    }

    private static void checkPrefix(int length, int first, int second) {
        if (length < 2) {
            throw new HexFormatException("expected 0x prefix, but the text has " + length
                    + " character" + (length == 1 ? "" : "s"), length == 1 && first != '0' ? 0 : -1);
        }
        if (first != '0') {
            throw new HexFormatException("expected '0' of the 0x prefix at index 0, found "
                    + describe(first), 0);
        }
        if (second != 'x') {
            throw new HexFormatException("expected 'x' of the 0x prefix at index 1, found "
                    + describe(second), 1);
        }
    }

    private static int checkedByteCount(int length, int expectedBytes) {
        int digits = length - 2;
        if (expectedBytes >= 0 && digits != 2 * expectedBytes) {
            throw new HexFormatException("expected " + expectedBytes + " bytes (" + (2 + 2 * expectedBytes)
                    + " characters with 0x), got " + length + " characters", -1);
        }
        if ((digits & 1) != 0) {
            throw new HexFormatException("expected an even number of hex digits after 0x, got " + digits,
                    -1);
        }
        return digits / 2;
    }

    private static void checkDigit(char c, int index) {
        if (c >= 128 || DIGIT_VALUES[c] < 0) {
            throw new HexFormatException("invalid hex character " + describe(c) + " at index " + index,
                    index);
        }
    }

    private static String describe(int c) {
        return c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("U+%04X", c);
    }
}
