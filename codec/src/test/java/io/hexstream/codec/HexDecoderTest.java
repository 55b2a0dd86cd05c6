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
        HexFormatException shortHash = assertThrows(HexFormatException.class, () -> HexDecoder.decode("0x01" + "ab".repeat(30), 32));
        assertEquals("expected 32 bytes (66 characters with 0x), got 64 characters", shortHash.getMessage());
        assertEquals(-1, shortHash.index());
        HexFormatException longHash = assertThrows(HexFormatException.class, () -> HexDecoder.decode(hash + "00", 32));
        assertEquals("expected 32 bytes (66 characters with 0x), got 68 characters", longHash.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
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
        HexFormatException fromBuf = assertThrows(HexFormatException.class,
                () -> HexDecoder.decode(ascii, 3, text.length(), dst, 0));
        assertEquals(message, fromBuf.getMessage());
        assertEquals(index, fromBuf.index());
        byte[] untouched = new byte[8];
        Arrays.fill(untouched, (byte) 0x55);
        assertArrayEquals(untouched, dst, "nothing is written on failure");
        ascii.release();
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
