package io.hexstream.client.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.Responses.Cells;
import java.util.List;

/** Entries read compared with the ones a response was made from, byte for byte. */
public final class Entries {
    private Entries() {}

    public static void assertBlobs(List<Blob> expected, List<Blob> actual, String what) {
        assertNotNull(actual, what);
        assertEquals(expected.size(), actual.size(), what + ": entries");
        for (int i = 0; i < expected.size(); i++) {
            Blob e = expected.get(i);
            Blob a = actual.get(i);
            if (e == null) {
                assertNull(a, what + ": entry " + i);
                continue;
            }
            assertArrayEquals(e.blob(), a.blob(), what + ": blob " + i);
            assertArrays(e.proofs(), a.proofs(), what + ": proofs of " + i);
        }
    }

    public static void assertCells(List<Cells> expected, List<Cells> actual, String what) {
        assertNotNull(actual, what);
        assertEquals(expected.size(), actual.size(), what + ": entries");
        for (int i = 0; i < expected.size(); i++) {
            Cells e = expected.get(i);
            Cells a = actual.get(i);
            if (e == null) {
                assertNull(a, what + ": entry " + i);
                continue;
            }
            assertArrays(e.cells(), a.cells(), what + ": cells of " + i);
            assertArrays(e.proofs(), a.proofs(), what + ": proofs of " + i);
        }
    }

    /** Lists of arrays, {@code null} elements included. */
    public static void assertArrays(List<byte[]> expected, List<byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        for (int k = 0; k < expected.size(); k++) {
            assertArrayEquals(expected.get(k), actual.get(k), what + " [" + k + "]");
        }
    }
}
