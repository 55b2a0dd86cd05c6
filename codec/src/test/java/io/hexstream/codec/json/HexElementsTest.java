package io.hexstream.codec.json;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.SeededTrials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/** {@link JsonBodyBuilder#hexElements}: elements of one source by index list, {@code null} for a negative index. */
class HexElementsTest {
    private static final int CELL = 2_048;

    /**
     * Produces the whole body in direct chunks of {@code chunkSize} (resuming inside every segment) and releases it.
     */
    private static String render(JsonBody body, int chunkSize) {
        JsonBodyInput input = new JsonBodyInput(body, chunkSize);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
                bytes.writeBytes(ByteBufUtil.getBytes(chunk));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return bytes.toString(UTF_8);
    }

    @Test
    void elementsByIndexBesideOtherValues() {
        byte[] six = {9, 8, 7, 6, 5, 4};
        byte[] other = {(byte) 0xaa, (byte) 0xbb, (byte) 0xcc};
        int[] indices = {7, 2, 0, -1, 1, 1, -1, -1, 0};
        JsonBody body = JsonBody.builder()
                .beginArray()
                .string("a")
                .hexElements(six, 0, 2, indices, 1, 6)
                .hexElements(other, 1, 1, indices, 6, 3, false)
                .nullValue()
                .endArray()
                .build();
        String expected = "[\"a\",\"0x0504\",\"0x0908\",null,\"0x0706\",\"0x0706\",null,null,null,\"bb\",null]";
        assertEquals(expected.length(), body.length());
        assertEquals(expected, render(body, JsonBodyInput.MIN_CHUNK_SIZE));
    }

    @Test
    void nothingForNoIndicesAndOnlyNullsForNegativeOnes() {
        int[] none = {-1, -5};
        JsonBody empty = JsonBody.builder()
                .beginArray()
                .hexElements(new byte[4], 0, 2, none, 0, 0)
                .endArray()
                .build();
        assertEquals(2, empty.length());
        assertEquals("[]", render(empty, 16));
        JsonBody nulls = JsonBody.builder()
                .beginObject()
                .name("p")
                .beginArray()
                .hexElements(new byte[0], 0, 48, none, 0, 2)
                .endArray()
                .endObject()
                .build();
        assertEquals("{\"p\":[null,null]}", render(nulls, 16));
    }

    @Test
    void cellsByIndexFromTwoSourcesMatchTheirHexOneByOne() {
        SeededTrials.run(0x4E11_5EEDL, 24, (random, trial) -> {
            byte[] low = randomBytes(random, 64 * CELL);
            byte[] high = randomBytes(random, 64 * CELL);
            int[] cells = new int[random.nextInt(129)];
            for (int k = 0; k < cells.length; k++) {
                cells[k] = random.nextInt(8) == 0 ? -1 : random.nextInt(128);
            }
            int split = random.nextInt(cells.length + 1);
            int[] lowIndices = new int[split];
            int[] highIndices = new int[cells.length - split];
            StringJoiner expected = new StringJoiner(",", "[", "]");
            for (int k = 0; k < cells.length; k++) {
                int cell = cells[k];
                boolean inLow = k < split;
                int index = cell < 0 ? -1 : cell % 64;
                if (inLow) {
                    lowIndices[k] = index;
                } else {
                    highIndices[k - split] = index;
                }
                expected.add(
                        cell < 0
                                ? "null"
                                : '"' + Hex.encodeToString(inLow ? low : high, index * CELL, CELL, true) + '"');
            }
            JsonBody body = JsonBody.builder()
                    .beginArray()
                    .hexElements(low, 0, CELL, lowIndices, 0, lowIndices.length)
                    .hexElements(high, 0, CELL, highIndices, 0, highIndices.length)
                    .endArray()
                    .build();
            String json = expected.toString();
            assertEquals(json.length(), body.length());
            assertEquals(json, render(body, JsonBodyInput.MIN_CHUNK_SIZE + random.nextInt(9_000)));
        });
    }

    @Test
    void elementsAreReferencedAndReadWhenProduced() {
        byte[] src = new byte[96];
        int[] indices = {1};
        JsonBody body = JsonBody.builder()
                .beginArray()
                .hexElements(src, 0, 48, indices, 0, 1)
                .endArray()
                .build();
        src[48] = 0x7f;
        assertEquals("[\"0x7f" + "00".repeat(47) + "\"]", render(body, 64));
    }

    /** Both take the element size in bytes; the values are those {@link HexFormat} writes. */
    @Test
    void rawAndEncodedElementsTakeTheSizeInBytes() {
        byte[] proofs = randomBytes(new SplittableRandom(0x9E0F5L), 4 * 48);
        int[] indices = {2, -1, 0, 3, 3};
        String expected = expectedElements(proofs, 48, indices);
        ByteBuf digits = Unpooled.copiedBuffer(HexFormat.of().formatHex(proofs), US_ASCII);
        try {
            assertEquals(
                    expected,
                    render(
                            JsonBody.builder()
                                    .beginArray()
                                    .hexElements(proofs, 0, 48, indices, 0, indices.length)
                                    .endArray()
                                    .build(),
                            64));
            assertEquals(
                    expected,
                    render(
                            JsonBody.builder()
                                    .beginArray()
                                    .encodedHexElements(digits, 48, indices, 0, indices.length, true)
                                    .endArray()
                                    .build(),
                            64));
            try (JsonBodyBuilder b = JsonBody.builder().beginArray()) {
                assertThrows(
                        IndexOutOfBoundsException.class,
                        () -> b.encodedHexElements(digits, 96, indices, 0, indices.length, true),
                        "digits, not bytes");
            }
            assertEquals(1, digits.refCnt());
        } finally {
            digits.release();
        }
    }

    /** The body keeps a copy of the index list: the caller may reuse its array at once. */
    @Test
    void aCallerChangingItsIndicesAfterBuildingChangesNothing() {
        byte[] cells = randomBytes(new SplittableRandom(0x1DCE5L), 3 * CELL);
        int[] indices = {1, 0, -1, 2};
        String expected = expectedElements(cells, CELL, indices);
        ByteBuf digits = Unpooled.copiedBuffer(HexFormat.of().formatHex(cells), US_ASCII);
        try {
            JsonBody raw = JsonBody.builder()
                    .beginArray()
                    .hexElements(cells, 0, CELL, indices, 0, 4)
                    .endArray()
                    .build();
            JsonBody encoded = JsonBody.builder()
                    .beginArray()
                    .encodedHexElements(digits, CELL, indices, 0, 4, true)
                    .endArray()
                    .build();
            int[] reused = {-1, 2, 1, 100};
            System.arraycopy(reused, 0, indices, 0, reused.length);
            assertEquals(expected.length(), raw.length());
            assertEquals(expected, render(raw, JsonBodyInput.MIN_CHUNK_SIZE));
            assertEquals(expected, render(encoded, JsonBodyInput.MIN_CHUNK_SIZE));
        } finally {
            digits.release();
        }
    }

    @Test
    void misuseIsRefusedAndWritesNothing() {
        byte[] src = new byte[96];
        int[] indices = {0, 1, 2};
        assertThrows(IllegalStateException.class, () -> JsonBody.builder().hexElements(src, 0, 48, indices, 0, 1));
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginObject().name("a").hexElements(src, 0, 48, indices, 0, 1));
        try (JsonBodyBuilder b = JsonBody.builder().beginArray().string("x")) {
            assertThrows(IllegalArgumentException.class, () -> b.hexElements(src, 0, -1, indices, 0, 1));
            assertThrows(IllegalArgumentException.class, () -> b.hexElements(src, 0, 48, indices, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> b.hexElements(src, 0, 48, indices, 0, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> b.hexElements(src, 1, 48, indices, 1, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> b.hexElements(src, -48, 48, indices, 0, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> b.hexElements(src, 0, 48, indices, 2, 2));
            assertEquals(
                    "[\"x\",\"0x" + "00".repeat(48) + "\"]",
                    render(b.hexElements(src, 0, 48, indices, 1, 1).endArray().build(), 16));
        }
    }

    /** {@code indices}' elements of {@code size} bytes as {@link HexFormat} writes them, {@code null} if negative. */
    private static String expectedElements(byte[] src, int size, int[] indices) {
        StringJoiner expected = new StringJoiner(",", "[", "]");
        for (int i : indices) {
            expected.add(i < 0 ? "null" : "\"0x" + HexFormat.of().formatHex(src, i * size, (i + 1) * size) + '"');
        }
        return expected.toString();
    }

    private static byte[] randomBytes(SplittableRandom random, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }
}
