package io.hexstream.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.SeededTrials;
import java.util.HexFormat;
import org.apache.tuweni.bytes.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Random arrays of up to 70,000 bytes, from fixed seeds (a failure names its seed and trial). */
class HexPropertiesTest {

    private static final int MAX = 70_000;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void equalsHexFormatAndTuweniAtAnyOffset(long seed) {
        SeededTrials.run(seed, 100, (random, trial) -> {
            byte[] data = SeededTrials.bytes(random, MAX);
            int a = SeededTrials.length(random, MAX);
            int b = SeededTrials.length(random, MAX);
            boolean prefix = random.nextBoolean();
            int from = Math.min(a, b) % (data.length + 1);
            int to = Math.min(data.length, from + Math.abs(a - b));
            String slice = "length " + data.length + ", [" + from + ", " + to + "), prefix " + prefix + ": ";

            String expected = HexFormat.of().formatHex(data, from, to);
            // tuweni refuses an empty slice at the very end of an array
            String tuweni = from == to ? "" : Bytes.wrap(data, from, to - from).toUnprefixedHexString();
            assertEquals(expected, tuweni, slice + "tuweni");
            assertEquals(
                    (prefix ? "0x" : "") + expected,
                    Hex.encodeToString(data, from, to - from, prefix),
                    slice + "encodeToString");

            byte[] dst = new byte[Hex.encodedLength(to - from, prefix) + 3];
            int n = Hex.encode(data, from, to - from, dst, 3, prefix);
            assertEquals((prefix ? "0x" : "") + expected, new String(dst, 3, n, US_ASCII), slice + "encode");

            byte[] table = new byte[2 * (to - from)];
            PairTable.encode(data, from, to - from, table, 0);
            assertEquals(expected, new String(table, US_ASCII), slice + "PairTable.encode");
        });
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5})
    void decodeInvertsEncode(long seed) {
        SeededTrials.run(seed, 100, (random, trial) -> {
            byte[] data = SeededTrials.bytes(random, MAX);
            String length = "length " + data.length + ": ";
            assertArrayEquals(data, HexDecoder.decode(Hex.encodeToString(data, true)), length + "lower case");
            assertArrayEquals(
                    data,
                    HexDecoder.decode(
                            Hex.encodeToString(data, true).toUpperCase().replace('X', 'x'), data.length),
                    length + "upper case");
        });
    }
}
