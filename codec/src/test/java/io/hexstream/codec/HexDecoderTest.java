package io.hexstream.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HexDecoderTest {

    @Test
    void decodesBothCases() {
        assertArrayEquals(new byte[] {0x00, (byte) 0xab, (byte) 0xCD, 0x7f}, HexDecoder.decode("0x00abCD7f"));
        assertArrayEquals(new byte[0], HexDecoder.decode("0x"));
        assertArrayEquals(new byte[] {0x66, 0x6f, 0x6f}, HexDecoder.decode(new StringBuilder("0x666F6f")));
    }

    @Test
    void versionedHashLength() {
        String hash = "0x01" + "ab".repeat(31);
        assertEquals(32, HexDecoder.decode(hash, 32).length);
        HexFormatException shortHash =
                assertThrows(HexFormatException.class, () -> HexDecoder.decode("0x01" + "ab".repeat(30), 32));
        assertEquals("expected 32 bytes (66 characters with 0x), got 64 characters", shortHash.getMessage());
        assertEquals(-1, shortHash.index());
        HexFormatException longHash = assertThrows(HexFormatException.class, () -> HexDecoder.decode(hash + "00", 32));
        assertEquals("expected 32 bytes (66 characters with 0x), got 68 characters", longHash.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "abcd      | 0 | expected '0' of the 0x prefix at index 0, found 'a'",
                "0X12      | 1 | expected 'x' of the 0x prefix at index 1, found 'X'",
                "00x12     | 1 | expected 'x' of the 0x prefix at index 1, found '0'",
                "x         | 0 | expected 0x prefix, but the text has 1 character",
                "0         | -1 | expected 0x prefix, but the text has 1 character",
                "0x123     | -1 | expected an even number of hex digits after 0x, got 3",
                "0xg0      | 2 | invalid hex character 'g' at index 2",
                "0x00g000  | 4 | invalid hex character 'g' at index 4",
                "0x00000G  | 7 | invalid hex character 'G' at index 7",
                "0x00 0    | 4 | invalid hex character ' ' at index 4",
                "0x0é      | 3 | invalid hex character U+00E9 at index 3",
                "0x0x      | 3 | invalid hex character 'x' at index 3",
            })
    void malformedTextNamesItsFault(String text, int index, String message) {
        HexFormatException e = assertThrows(HexFormatException.class, () -> HexDecoder.decode(text));
        assertEquals(message, e.getMessage());
        assertEquals(index, e.index());

        ByteBuf ascii = Unpooled.copiedBuffer("..." + text, java.nio.charset.StandardCharsets.ISO_8859_1);
        byte[] dst = new byte[8];
        Arrays.fill(dst, (byte) 0x55);
        HexFormatException fromBuf =
                assertThrows(HexFormatException.class, () -> HexDecoder.decode(ascii, 3, text.length(), dst, 0));
        assertEquals(message, fromBuf.getMessage());
        assertEquals(index, fromBuf.index());
        byte[] untouched = new byte[8];
        Arrays.fill(untouched, (byte) 0x55);
        assertArrayEquals(untouched, dst, "nothing is written on failure");
        ascii.release();

        char[] chars = text.toCharArray();
        HexFormatException inPieces = assertThrows(HexFormatException.class, () -> {
            int n = HexDecoder.checkedByteCount(
                    chars.length, chars.length > 0 ? chars[0] : 0, chars.length > 1 ? chars[1] : 0, -1);
            HexDecoder.decodeDigits(chars, 2, chars.length - 2, new byte[n], 0, 2);
        });
        assertEquals(message, inPieces.getMessage());
        assertEquals(index, inPieces.index());
    }

    @Test
    void decodesPiecesOfDigitsAsHexFormat() {
        java.util.Random random = new java.util.Random(23);
        byte[] bytes = new byte[1000];
        random.nextBytes(bytes);
        String digits = java.util.HexFormat.of().withUpperCase().formatHex(bytes, 0, 500)
                + java.util.HexFormat.of().formatHex(bytes, 500, 1000);
        char[] src = ("??" + digits + "??").toCharArray();
        byte[] dst = new byte[1002];
        int done = 0;
        for (int piece : new int[] {2, 0, 14, 1000, 984}) {
            HexDecoder.decodeDigits(src, 2 + 2 * done, piece, dst, 1 + done, 2 + 2 * done);
            done += piece / 2;
        }
        assertArrayEquals(bytes, Arrays.copyOfRange(dst, 1, 1001));
        assertEquals(32, HexDecoder.checkedByteCount(66, '0', 'x', 32));
        assertEquals(0, HexDecoder.checkedByteCount(2, '0', 'x', -1));
    }

    @Test
    void aPieceNamesTheIndexInTheWholeText() {
        HexFormatException e = assertThrows(
                HexFormatException.class,
                () -> HexDecoder.decodeDigits("zz00g0".toCharArray(), 2, 4, new byte[2], 0, 100_000));
        assertEquals("invalid hex character 'g' at index 100002", e.getMessage());
        assertEquals(100_002, e.index());
        HexFormatException low = assertThrows(
                HexFormatException.class,
                () -> HexDecoder.decodeDigits("0\u0100".toCharArray(), 0, 2, new byte[1], 0, 7));
        assertEquals("invalid hex character U+0100 at index 8", low.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> HexDecoder.decodeDigits("000".toCharArray(), 0, 3, new byte[2], 0, 2));
        assertThrows(
                IndexOutOfBoundsException.class,
                () -> HexDecoder.decodeDigits("0000".toCharArray(), 0, 4, new byte[1], 0, 2));
    }

    @Test
    void emptyAndNull() {
        HexFormatException empty = assertThrows(HexFormatException.class, () -> HexDecoder.decode(""));
        assertEquals("expected 0x prefix, but the text has 0 characters", empty.getMessage());
        assertEquals(-1, empty.index());
        HexFormatException nul = assertThrows(HexFormatException.class, () -> HexDecoder.decode(null));
        assertEquals("hex text is null", nul.getMessage());
        assertEquals(-1, nul.index());
        assertThrows(HexFormatException.class, () -> HexDecoder.decode(null, 32));
    }

    @Test
    void decodesAByteBufRegionIntoACallerArray() {
        ByteBuf src = Unpooled.directBuffer().writeBytes("[\"0x00ff10Ab\"]".getBytes(US_ASCII));
        try {
            byte[] dst = new byte[6];
            assertEquals(4, HexDecoder.decode(src, 2, 10, dst, 1));
            assertArrayEquals(new byte[] {0, 0x00, (byte) 0xff, 0x10, (byte) 0xab, 0}, dst);
            assertEquals(0, src.readerIndex());
            assertThrows(IndexOutOfBoundsException.class, () -> HexDecoder.decode(src, 2, 10, new byte[3], 0));
            assertThrows(IndexOutOfBoundsException.class, () -> HexDecoder.decode(src, src.capacity() - 4, 10, dst, 0));
        } finally {
            src.release();
        }
    }
}
