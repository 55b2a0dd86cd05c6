package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The portable kernel against its definition, the 512-byte table, read one byte at a time. */
class PairTableTest {
    private static final byte SENTINEL = (byte) 0xA5;

    /** Every byte value, at every source and destination alignment of an 8-byte word, every length to 40. */
    @Test
    void everyByteValueAtEveryAlignmentAndLength() {
        byte[] src = new byte[256 + 8];
        for (int i = 0; i < src.length; i++) {
            src[i] = (byte) (i * 167 + 13); // 167 is odd: i -> byte is a bijection over every 256 consecutive i
        }
        for (int srcOffset = 0; srcOffset < 8; srcOffset++) {
            for (int dstOffset = 0; dstOffset < 8; dstOffset++) {
                check(src, srcOffset, 256, dstOffset);
                for (int length = 0; length <= 40; length++) {
                    check(src, srcOffset, length, dstOffset);
                }
            }
        }
    }

    @Test
    void tableIsTheLowercaseDigitsHighFirst() {
        assertEquals('0', PairTable.TABLE[0]);
        assertEquals('0', PairTable.TABLE[1]);
        assertEquals('a', PairTable.TABLE[2 * 0xA7]);
        assertEquals('7', PairTable.TABLE[2 * 0xA7 + 1]);
        assertEquals('f', PairTable.TABLE[510]);
        assertEquals('f', PairTable.TABLE[511]);
    }

    private static void check(byte[] src, int srcOffset, int length, int dstOffset) {
        byte[] expected = new byte[dstOffset + 2 * length + 3];
        Arrays.fill(expected, SENTINEL);
        for (int i = 0; i < length; i++) {
            int b = src[srcOffset + i] & 0xFF;
            expected[dstOffset + 2 * i] = PairTable.TABLE[2 * b];
            expected[dstOffset + 2 * i + 1] = PairTable.TABLE[2 * b + 1];
        }
        byte[] actual = new byte[expected.length];
        Arrays.fill(actual, SENTINEL);
        PairTable.encode(src, srcOffset, length, actual, dstOffset);
        assertArrayEquals(
                expected, actual, () -> "srcOffset " + srcOffset + ", length " + length + ", dstOffset " + dstOffset);
    }
}
