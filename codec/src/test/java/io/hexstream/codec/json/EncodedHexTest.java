package io.hexstream.codec.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Values given already encoded: exact bytes, slices not copies, and every reference given back. */
class EncodedHexTest {
    /** 10,000 bytes: 20,000 digits, above {@link EncodedSegment#MIN_SLICED_DIGITS}, so sliced. */
    private static final byte[] LONG = bytes(10_000, 7);
    /** Two 2-byte values: 8 digits, copied into the chunk. */
    private static final byte[] SHORT = {1, 2, 3, 4};

    @Test
    void encodedValuesProduceTheBytesHexWould() {
        ByteBuf longDigits = digits(LONG);
        ByteBuf shortDigits = digits(SHORT);
        try {
            byte[] expected = produce(
                    JsonBody.builder()
                            .beginObject()
                            .name("a")
                            .hex(LONG)
                            .name("b")
                            .hexArray(SHORT, 0, 2, 2)
                            .name("c")
                            .hex(SHORT, 0, 0, false)
                            .endObject()
                            .build(),
                    4096);
            JsonBody body = JsonBody.builder()
                    .beginObject()
                    .name("a")
                    .encodedHex(longDigits, true)
                    .name("b")
                    .encodedHexArray(shortDigits, 2, 2, true)
                    .name("c")
                    .encodedHex(shortDigits.slice(0, 0), false)
                    .endObject()
                    .build();
            assertEquals(expected.length, body.length(), "exact length before the first byte");
            assertEquals(8 + 20_000 + 33, body.length()); // {"a":"0x … ","b":["0x0102","0x0304"],"c":""}
            assertArrayEquals(expected, produce(body, 4096));
            assertEquals(1, longDigits.refCnt(), "every slice and the body released");
            assertEquals(1, shortDigits.refCnt());
        } finally {
            longDigits.release();
            shortDigits.release();
        }
    }

    @Test
    void aLongValueComesAsRetainedSlicesBetweenProducedChunks() {
        ByteBuf digits = digits(LONG);
        try {
            JsonBodyInput input = new JsonBodyInput(
                    JsonBody.builder()
                            .beginArray()
                            .encodedHex(digits, true)
                            .encodedHex(digits, false)
                            .endArray()
                            .build(),
                    8192);
            assertEquals(3, digits.refCnt(), "the caller's and one per value");
            List<ByteBuf> chunks = new ArrayList<>();
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
                chunks.add(chunk);
            }
            try {
                List<String> expected =
                        List.of("[\"0x", "s8192", "s8192", "s3616", "\",\"", "s8192", "s8192", "s3616", "\"]");
                assertEquals(expected.size(), chunks.size());
                for (int i = 0; i < expected.size(); i++) {
                    ByteBuf chunk = chunks.get(i);
                    if (expected.get(i).startsWith("s")) {
                        assertEquals(Integer.parseInt(expected.get(i).substring(1)), chunk.readableBytes());
                        assertTrue(chunk.unwrap() != null, "a slice, not a copy: chunk " + i);
                    } else {
                        assertEquals(expected.get(i), chunk.toString(StandardCharsets.US_ASCII));
                    }
                }
                assertEquals(
                        Hex.encodeToString(LONG, false).substring(8192, 16_384),
                        chunks.get(2).toString(StandardCharsets.US_ASCII));
                assertEquals(3 + 6, digits.refCnt(), "six slices outstanding");
                assertTrue(input.isEndOfInput());
                input.close();
                assertEquals(1 + 6, digits.refCnt(), "the body released, the slices still alive");
            } finally {
                chunks.forEach(ByteBuf::release);
            }
            assertEquals(1, digits.refCnt());
        } finally {
            digits.release();
        }
    }

    @Test
    void closingMidValueReleasesTheBodyAndLeavesOnlyTheSlicesHandedOut() {
        ByteBuf digits = digits(LONG);
        try {
            JsonBodyInput input = new JsonBodyInput(
                    JsonBody.builder().encodedHex(digits, true).build(), 4096);
            ByteBuf opening = input.readChunk(PooledByteBufAllocator.DEFAULT);
            ByteBuf slice = input.readChunk(PooledByteBufAllocator.DEFAULT);
            assertEquals("\"0x", opening.toString(StandardCharsets.US_ASCII));
            assertEquals(4096, slice.readableBytes());
            assertEquals(4096, input.progress() - 3);
            input.close(); // a disconnect mid-value
            input.close();
            assertNull(input.readChunk(PooledByteBufAllocator.DEFAULT));
            assertEquals(2, digits.refCnt(), "the caller's and the slice handed out");
            opening.release();
            slice.release();
            assertEquals(1, digits.refCnt());
        } finally {
            digits.release();
        }
    }

    /**
     * Elements picked by index from encoded digits equal {@code hexElements} over the raw bytes, short ones (copied)
     * and long ones (sliced) alike, with {@code null} for a negative index and a refused index retaining nothing.
     */
    @Test
    void encodedElementsPickedByIndexProduceTheBytesHexElementsWould() {
        byte[] cells = bytes(4 * 2048, 5); // four 2,048-byte cells: 4,096 digits each, copied
        byte[] blobs = bytes(2 * 10_000, 9); // two 10,000-byte values: 20,000 digits each, sliced
        int[] indices = {3, 0, -1, 2, 2, -1};
        int[] two = {1, -1, 0};
        ByteBuf cellDigits = digits(cells);
        ByteBuf blobDigits = digits(blobs);
        try {
            byte[] expected = produce(
                    JsonBody.builder()
                            .beginArray()
                            .hexElements(cells, 0, 2048, indices, 0, 6)
                            .hexElements(blobs, 0, 10_000, two, 0, 3, false)
                            .hexElements(cells, 0, 2048, indices, 1, 0)
                            .endArray()
                            .build(),
                    4096);
            JsonBody body = JsonBody.builder()
                    .beginArray()
                    .encodedHexElements(cellDigits, 2048, indices, 0, 6, true)
                    .encodedHexElements(blobDigits, 10_000, two, 0, 3, false)
                    .encodedHexElements(cellDigits, 2048, indices, 1, 0, true)
                    .endArray()
                    .build();
            assertEquals(3, cellDigits.refCnt(), "one reference per run of indices: [3, 0] and [2, 2]");
            assertEquals(expected.length, body.length(), "exact length before the first byte");
            assertEquals(2 + 4 * (4096 + 4) + 2 * (20_000 + 2) + 3 * 4 + 8, body.length());
            assertArrayEquals(expected, produce(body, 4096));
            assertEquals(1, cellDigits.refCnt(), "every slice and the body released");
            assertEquals(1, blobDigits.refCnt());
            try (JsonBodyBuilder b = JsonBody.builder().beginArray()) {
                assertThrows(
                        IndexOutOfBoundsException.class,
                        () -> b.encodedHexElements(cellDigits, 2048, new int[] {0, 4}, 0, 2, true));
                assertThrows(
                        IllegalStateException.class,
                        () -> JsonBody.builder().encodedHexElements(cellDigits, 2048, indices, 0, 1, true));
            }
            assertEquals(1, cellDigits.refCnt(), "a refused index retains nothing");
        } finally {
            cellDigits.release();
            blobDigits.release();
        }
    }

    /** {@code encodedHexArray} takes the size in bytes, as {@code hexArray}; the values are {@link HexFormat}'s. */
    @Test
    void anEncodedArrayTakesTheSizeInBytes() {
        byte[] proofs = bytes(3 * 48, 11);
        HexFormat hex = HexFormat.of();
        String expected = "[\"0x" + hex.formatHex(proofs, 0, 48) + "\",\"0x" + hex.formatHex(proofs, 48, 96) + "\",\"0x"
                + hex.formatHex(proofs, 96, 144) + "\"]";
        ByteBuf digits = Unpooled.copiedBuffer(hex.formatHex(proofs), StandardCharsets.US_ASCII);
        try {
            byte[] encoded = produce(
                    JsonBody.builder().encodedHexArray(digits, 48, 3, true).build(), 4096);
            assertEquals(expected, new String(encoded, StandardCharsets.US_ASCII));
            assertArrayEquals(
                    encoded,
                    produce(JsonBody.builder().hexArray(proofs, 0, 48, 3).build(), 4096));
            try (JsonBodyBuilder b = JsonBody.builder()) {
                assertThrows(
                        IllegalArgumentException.class,
                        () -> b.encodedHexArray(digits, 96, 3, true),
                        "digits, not bytes");
            }
            assertEquals(1, digits.refCnt());
        } finally {
            digits.release();
        }
    }

    @Test
    void anAbandonedOrFailedBuildReleasesWhatItRetained() {
        ByteBuf digits = digits(LONG);
        try {
            try (JsonBodyBuilder b = JsonBody.builder()) {
                b.beginArray().encodedHex(digits, true).encodedHexArray(digits, 5_000, 2, true);
                assertEquals(3, digits.refCnt());
                assertThrows(IllegalStateException.class, b::build, "an array still open");
            }
            assertEquals(1, digits.refCnt(), "close released both references");
            try (JsonBodyBuilder b = JsonBody.builder()) {
                assertThrows(IllegalArgumentException.class, () -> b.encodedHexArray(digits, 48, 3, true));
            }
            assertEquals(1, digits.refCnt(), "a refused value retains nothing");
        } finally {
            digits.release();
        }
    }

    @Test
    void throughChunkedWriteHandlerEveryOutboundBufferIsReadAndReleased() {
        ByteBuf digits = digits(LONG);
        ByteBuf none = digits(new byte[0]);
        try {
            JsonBody body = JsonBody.builder()
                    .beginObject()
                    .name("v")
                    .encodedHex(digits, true)
                    .name("e")
                    .encodedHexArray(none, 48, 0, true)
                    .endObject()
                    .build();
            byte[] expected = ("{\"v\":\"0x" + Hex.encodeToString(LONG, false) + "\",\"e\":[]}")
                    .getBytes(StandardCharsets.US_ASCII);
            EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler());
            assertTrue(channel.writeOutbound(new JsonBodyInput(body, 16_384)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int buffers = 0;
            for (ByteBuf chunk; (chunk = channel.readOutbound()) != null; buffers++) {
                out.writeBytes(bytesOf(chunk));
            }
            assertEquals(4, buffers, "{\"v\":\"0x, two slices, then \",\"e\":[]}");
            assertArrayEquals(expected, out.toByteArray());
            assertEquals(0, body.refCnt());
            assertEquals(1, digits.refCnt());
            assertFalse(channel.finishAndReleaseAll());
        } finally {
            digits.release();
            none.release();
        }
    }

    private static byte[] produce(JsonBody body, int chunkSize) {
        JsonBodyInput input = new JsonBodyInput(body, chunkSize);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
            out.writeBytes(bytesOf(chunk));
        }
        input.close();
        return out.toByteArray();
    }

    /** The chunk's readable bytes; releases it. */
    private static byte[] bytesOf(ByteBuf chunk) {
        try {
            byte[] bytes = new byte[chunk.readableBytes()];
            chunk.readBytes(bytes);
            return bytes;
        } finally {
            chunk.release();
        }
    }

    private static ByteBuf digits(byte[] value) {
        ByteBuf digits = PooledByteBufAllocator.DEFAULT.directBuffer(2 * value.length);
        Hex.encode(value, 0, value.length, digits, false);
        return digits;
    }

    private static byte[] bytes(int n, int seed) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }
}
