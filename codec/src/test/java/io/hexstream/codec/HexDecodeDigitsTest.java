package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.codec.testing.SeededTrials;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@link HexDecoder#decodeDigits} against {@link HexFormat}: runs of mixed-case digits of every length up to past a few
 * SIMD steps, with one byte of every other value at every position. Both surefire runs execute it, so the SIMD and the
 * table kernel are each checked.
 */
class HexDecodeDigitsTest {
    private static final byte UNTOUCHED = 0x55;

    @Test
    void decodesTheLongestRunOfPairs() {
        SeededTrials.run(0xD1617, 300, (random, trial) -> {
            byte[] bytes = SeededTrials.bytes(random, 300);
            String digits = HexFormat.of().formatHex(bytes);
            char[] text = digits.toCharArray();
            for (int i = 0; i < text.length; i++) {
                text[i] = random.nextBoolean() ? Character.toUpperCase(text[i]) : text[i];
            }
            String odd = random.nextBoolean() ? "" : "7";
            byte[] src = ("zz" + new String(text) + odd).getBytes(StandardCharsets.US_ASCII);
            byte[] dst = new byte[1 + src.length / 2];
            Arrays.fill(dst, UNTOUCHED);
            assertEquals(bytes.length, HexDecoder.decodeDigits(src, 2, src.length - 2, dst, 1));
            assertArrayEquals(bytes, Arrays.copyOfRange(dst, 1, 1 + bytes.length));
            assertEquals(UNTOUCHED, dst[0]);
        });
    }

    @Test
    void stopsBeforeThePairHoldingAnyNonDigit() {
        byte[] digits = "0123456789abcdefABCDEF".repeat(8).getBytes(StandardCharsets.US_ASCII);
        for (int bad = 0; bad < 256; bad++) {
            if (HexDecoder.digit(bad) >= 0) {
                continue;
            }
            for (int at = 0; at < 130; at++) {
                byte[] src = Arrays.copyOf(digits, 132);
                src[at] = (byte) bad;
                byte[] dst = new byte[66];
                Arrays.fill(dst, UNTOUCHED);
                int pairs = at / 2;
                assertEquals(pairs, HexDecoder.decodeDigits(src, 0, src.length, dst, 0), "byte " + bad + " at " + at);
                assertArrayEquals(
                        HexFormat.of().parseHex(new String(src, 0, 2 * pairs, StandardCharsets.US_ASCII)),
                        Arrays.copyOf(dst, pairs));
                assertEquals(UNTOUCHED, dst[pairs], "written past the run");
            }
        }
    }

    @Test
    void checksBoundsBeforeWriting() {
        assertThrows(IndexOutOfBoundsException.class, () -> HexDecoder.decodeDigits(new byte[4], 2, 4, new byte[2], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> HexDecoder.decodeDigits(new byte[4], 0, 4, new byte[2], 1));
    }
}
