package io.hexstream.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.apache.tuweni.bytes.Bytes;

class HexPropertiesTest {

    @Provide
    Arbitrary<byte[]> data() {
        return Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(70_000);
    }

    @Property(tries = 300)
    void equalsHexFormatAndTuweniAtAnyOffset(@ForAll("data") byte[] data, @ForAll @IntRange(max = 70_000) int a,
            @ForAll @IntRange(max = 70_000) int b, @ForAll boolean prefix) {
        int from = Math.min(a, b) % (data.length + 1);
        int to = Math.min(data.length, from + Math.abs(a - b));
        String expected = HexFormat.of().formatHex(data, from, to);
        // tuweni refuses an empty slice at the very end of an array
        String tuweni = from == to ? "" : Bytes.wrap(data, from, to - from).toUnprefixedHexString();
        assertEquals(expected, tuweni);
        assertEquals((prefix ? "0x" : "") + expected, Hex.encodeToString(data, from, to - from, prefix));

        byte[] dst = new byte[Hex.encodedLength(to - from, prefix) + 3];
        int n = Hex.encode(data, from, to - from, dst, 3, prefix);
        assertEquals((prefix ? "0x" : "") + expected, new String(dst, 3, n, US_ASCII));

        byte[] table = new byte[2 * (to - from)];
        PairTable.encode(data, from, to - from, table, 0);
        assertEquals(expected, new String(table, US_ASCII));
    }

    @Property(tries = 200)
    void decodeInvertsEncode(@ForAll("data") byte[] data) {
        assertArrayEquals(data, Hex.decode(Hex.encodeToString(data, true)));
        assertArrayEquals(data, Hex.decode(Hex.encodeToString(data, true).toUpperCase().replace('X', 'x'), data.length));
    }
}
