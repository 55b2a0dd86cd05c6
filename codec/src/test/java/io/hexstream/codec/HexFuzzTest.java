package io.hexstream.codec;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Jazzer target for strict decoding. The first input byte picks the expected length (its value minus one: -1, any
 * length, to 254), the rest is the text, read as Latin-1 (one char a byte, so that the {@code ByteBuf} path sees the
 * same text) and as UTF-8 (chars beyond Latin-1). Invariants: nothing but {@link HexFormatException} escapes; a text
 * decodes exactly when it is strict {@code DATA} of the expected length, to what {@link HexFormat} makes of its digits;
 * a refusal names a real fault (the offending character at its index, or {@code -1} for a length fault); both paths
 * agree, and the {@code ByteBuf} path writes nothing when it refuses. Seeds in {@code HexFuzzTestInputs/}; the build
 * fuzzes it for 60 s (the {@code fuzz} profile in the POM).
 */
class HexFuzzTest {
    private static final byte UNTOUCHED = 0x55;

    @FuzzTest(maxDuration = "60s")
    void decodeIsStrictAndAgreesOnEveryPath(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int expectedBytes = (input[0] & 0xff) - 1;
        byte[] text = Arrays.copyOfRange(input, 1, input.length);
        String latin1 = new String(text, ISO_8859_1);
        assertAgreesWithOracle(latin1, expectedBytes, outcome(latin1, expectedBytes));
        Object anyLength = outcome(latin1, -1);
        assertAgreesWithOracle(latin1, -1, anyLength);
        assertEquals(describe(anyLength), describe(fromByteBuf(text)), () -> "ByteBuf path on " + latin1);
        String utf8 = new String(text, UTF_8);
        assertAgreesWithOracle(utf8, expectedBytes, outcome(utf8, expectedBytes));
    }

    /** The decoded bytes, or the {@link HexFormatException}; anything else thrown fails the target. */
    private static Object outcome(String text, int expectedBytes) {
        try {
            return HexDecoder.decode(text, expectedBytes);
        } catch (HexFormatException e) {
            return e;
        }
    }

    private static Object fromByteBuf(byte[] text) {
        ByteBuf src = Unpooled.directBuffer(3 + text.length).writeZero(3).writeBytes(text); // the text at index 3
        byte[] dst = new byte[Math.max(0, (text.length - 2) / 2)];
        Arrays.fill(dst, UNTOUCHED);
        try {
            int n = HexDecoder.decode(src, 3, text.length, dst, 0);
            return Arrays.copyOf(dst, n);
        } catch (HexFormatException e) {
            for (byte b : dst) {
                assertEquals(UNTOUCHED, b, "written though refused");
            }
            return e;
        } finally {
            src.release();
        }
    }

    private static void assertAgreesWithOracle(String text, int expectedBytes, Object outcome) {
        boolean strict = text.length() >= 2
                && text.charAt(0) == '0'
                && text.charAt(1) == 'x'
                && text.length() % 2 == 0
                && text.chars().skip(2).allMatch(HexFuzzTest::isDigit)
                && (expectedBytes < 0 || text.length() == 2 + 2 * expectedBytes);
        if (strict) {
            assertTrue(outcome instanceof byte[], () -> text + ": " + describe(outcome));
            assertArrayEquals(HexFormat.of().parseHex(text, 2, text.length()), (byte[]) outcome);
            return;
        }
        assertTrue(outcome instanceof HexFormatException, () -> "accepted " + text);
        HexFormatException e = (HexFormatException) outcome;
        int index = e.index();
        assertTrue(index >= -1 && index < text.length(), () -> "index " + index + " of " + text);
        if (index == 0) {
            assertTrue(text.charAt(0) != '0');
        } else if (index == 1) {
            assertTrue(text.charAt(0) == '0' && text.charAt(1) != 'x');
        } else if (index >= 2) {
            assertTrue(
                    !isDigit(text.charAt(index))
                            && text.chars().limit(index).skip(2).allMatch(HexFuzzTest::isDigit),
                    () -> "index " + index + " of " + text);
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static String describe(Object outcome) {
        return outcome instanceof HexFormatException e
                ? e.index() + ": " + e.getMessage()
                : HexFormat.of().formatHex((byte[]) outcome);
    }
}
