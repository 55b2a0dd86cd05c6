package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.codec.HexFormatException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** {@code indices_bitarray} as an SSZ {@code Bitvector[128]}, and the index lists a response is written from. */
class CellIndicesTest {

    @Test
    void cellIIsBitIMod8OfByteIDiv8() {
        assertArrayEquals(
                new int[] {0}, CellIndices.decode("0x01" + "00".repeat(15)).cellList());
        assertArrayEquals(
                new int[] {7}, CellIndices.decode("0x80" + "00".repeat(15)).cellList());
        assertArrayEquals(
                new int[] {1, 8, 63, 64, 126, 127},
                CellIndices.decode("0x0201000000000080" + "01000000000000c0").cellList());
        assertArrayEquals(
                new int[] {120, 121},
                CellIndices.decode("0x" + "00".repeat(15) + "03").cellList());
        assertArrayEquals(new int[0], CellIndices.decode("0x" + "00".repeat(16)).cellList());
        assertArrayEquals(
                IntStream.range(0, 128).toArray(),
                CellIndices.decode("0x" + "fF".repeat(16)).cellList());
    }

    @Test
    void indexListsForTheBlobTheExtensionAndTheProofs() {
        CellIndices cells = CellIndices.decode("0x0201000000000080" + "01000000000000c0");
        assertEquals(6, cells.count());
        assertEquals(3, cells.inBlob());
        assertArrayEquals(new int[] {0, 62, 63}, cells.extensionList());
        assertArrayEquals(new int[] {1, 8, 63, -1, -1, -1}, cells.proofListWithoutExtension());
    }

    @Test
    void anythingButSixteenBytesOfDataIsRefused() {
        assertEquals(
                "expected 16 bytes (34 characters with 0x), got 32 characters",
                assertThrows(HexFormatException.class, () -> CellIndices.decode("0x" + "00".repeat(15)))
                        .getMessage());
        assertThrows(HexFormatException.class, () -> CellIndices.decode("0x" + "00".repeat(17)));
        assertThrows(HexFormatException.class, () -> CellIndices.decode("00".repeat(17)));
        assertThrows(HexFormatException.class, () -> CellIndices.decode("0x" + "0g".repeat(16)));
        assertThrows(HexFormatException.class, () -> CellIndices.decode(null));
    }
}
