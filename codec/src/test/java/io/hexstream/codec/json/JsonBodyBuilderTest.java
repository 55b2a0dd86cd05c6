package io.hexstream.codec.json;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class JsonBodyBuilderTest {

    /** Produces the whole body through a {@link JsonBodyInput} (UTF-8 decoded whole) and releases it. */
    static String render(JsonBody body) {
        JsonBodyInput input = new JsonBodyInput(body, JsonBodyInput.MIN_CHUNK_SIZE);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(UnpooledByteBufAllocator.DEFAULT)) != null; ) {
                bytes.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(chunk));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return bytes.toString(UTF_8);
    }

    @Test
    void commasNamesAndNesting() {
        JsonBody body = JsonBody.builder()
                .beginObject()
                .name("a")
                .beginArray()
                .raw("1")
                .number(-42)
                .number(Long.MAX_VALUE)
                .nullValue()
                .string("x")
                .beginArray()
                .endArray()
                .beginObject()
                .endObject()
                .endArray()
                .name("b")
                .hex(new byte[] {1, (byte) 0xfe})
                .name("c")
                .hexArray(new byte[] {9, 8, 7, 6, 5, 4}, 1, 2, 2)
                .name("d")
                .hexArray(new byte[0], 0, 48, 0)
                .name("e")
                .hex(new byte[0])
                .name("f")
                .raw("{\"é\":\"\\\"\"}")
                .endObject()
                .build();
        String expected =
                "{\"a\":[1,-42,9223372036854775807,null,\"x\",[],{}],\"b\":\"0x01fe\",\"c\":[\"0x0807\",\"0x0605\"],"
                        + "\"d\":[],\"e\":\"0x\",\"f\":{\"é\":\"\\\"\"}}";
        assertEquals(expected.getBytes(UTF_8).length, body.length());
        assertEquals(expected, render(body));
    }

    @Test
    void aTopLevelHexValueOrArray() {
        assertEquals("\"0xff\"", render(JsonBody.builder().hex(new byte[] {-1}).build()));
        assertEquals(
                "[\"0x0a\"]",
                render(JsonBody.builder().hexArray(new byte[] {10}, 0, 1, 1).build()));
    }

    /** A body built alone goes in whole as one value: its bytes, its retained buffers, a reference given back. */
    @Test
    void aBuiltBodyIsTakenOverAsOneValue() {
        ByteBuf digits = Unpooled.copiedBuffer("abcd", UTF_8);
        JsonBody first = JsonBody.builder()
                .beginObject()
                .name("x")
                .encodedHex(digits, true)
                .endObject()
                .build();
        JsonBody second = JsonBody.builder().hex(new byte[] {1}).build();
        digits.release(); // the first body holds its own reference
        JsonBody body = JsonBody.builder()
                .beginArray()
                .value(first)
                .nullValue()
                .value(second)
                .endArray()
                .build();
        assertEquals(0, first.refCnt());
        assertEquals(0, second.refCnt());
        assertEquals(1, digits.refCnt(), "now held by the body that took the first over");
        String expected = "[{\"x\":\"0xabcd\"},null,\"0x01\"]";
        assertEquals(expected.length(), body.length());
        assertEquals(expected, render(body));
        assertEquals(0, digits.refCnt());

        JsonBody shared = JsonBody.builder().hex(new byte[] {2}).build().retain();
        JsonBodyBuilder refused = JsonBody.builder().beginArray();
        assertThrows(IllegalStateException.class, () -> refused.value(shared), "another reference is held");
        assertEquals(2, shared.refCnt(), "and nothing was taken");
        refused.close();
        shared.release(2);
    }

    @Test
    void misuseIsRefused() {
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginObject().raw("1"));
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginArray().name("a"));
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginObject().name("a").name("b"));
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginObject().name("a").endObject());
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginArray().endObject());
        assertThrows(
                IllegalStateException.class, () -> JsonBody.builder().raw("1").raw("2"));
        assertThrows(
                IllegalStateException.class,
                () -> JsonBody.builder().beginArray().build());
        assertThrows(IllegalStateException.class, () -> JsonBody.builder().build());
        assertThrows(IllegalArgumentException.class, () -> JsonBody.builder().hexArray(new byte[4], 0, -1, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> JsonBody.builder().hex(new byte[4], 2, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> JsonBody.builder().hexArray(new byte[95], 0, 48, 2));
    }

    @Test
    void stringsAndNamesAreEscapedAsJacksonEscapesThem() throws Exception {
        ObjectMapper jackson = new ObjectMapper();
        String[] values = {
            "",
            "plain",
            "quote \" and \\ backslash",
            "\b\t\n\f\r",
            "\u0000\u0001\u001f\u007f",
            "é ñ ü",
            "€ 中文",
            "😀 emoji (a surrogate pair)",
            "/ stays",
            "mixed\u0007é😀\"\\end"
        };
        for (String value : values) {
            JsonBody body = JsonBody.builder()
                    .beginObject()
                    .name(value)
                    .string(value)
                    .endObject()
                    .build();
            String expected = jackson.writeValueAsString(java.util.Map.of(value, value));
            assertEquals(expected.getBytes(UTF_8).length, body.length(), value);
            assertEquals(expected, render(body), value);
        }
    }

    @Test
    void anUnpairedSurrogateIsEscaped() {
        JsonBody body = JsonBody.builder()
                .beginArray()
                .string("a\ud800b")
                .string("\udc00")
                .string("x\ud83d")
                .endArray()
                .build();
        assertEquals("[\"a\\uD800b\",\"\\uDC00\",\"x\\uD83D\"]", render(body));
    }

    @Test
    void thePrefixIsAnOptionPerValue() {
        ByteBuf buf = Unpooled.buffer().writeBytes(new byte[] {(byte) 0xc3});
        JsonBody body = JsonBody.builder()
                .beginArray()
                .hex(new byte[] {1, 2}, 0, 2, false)
                .hex(new byte[] {1, 2}, 1, 1, true)
                .hex(buf, false)
                .hex(ByteBuffer.wrap(new byte[] {(byte) 0xee}), false)
                .hexArray(new byte[] {9, 8, 7, 6}, 0, 2, 2, false)
                .hexArray(new byte[0], 0, 2, 0, false)
                .hexArray(java.util.List.of(new byte[] {10}, new byte[0], new byte[] {11, 12}), false)
                .endArray()
                .build();
        buf.release();
        String expected = "[\"0102\",\"0x02\",\"c3\",\"ee\",[\"0908\",\"0706\"],[],[\"0a\",\"\",\"0b0c\"]]";
        assertEquals(expected.length(), body.length());
        assertEquals(expected, render(body));
    }

    @Test
    void aListOfArraysOfAnyLengths() {
        JsonBody body = JsonBody.builder()
                .beginObject()
                .name("a")
                .hexArray(java.util.List.of(new byte[] {(byte) 0xab}, new byte[] {1, 2, 3}, new byte[0]))
                .name("b")
                .hexArray(java.util.List.of())
                .endObject()
                .build();
        String expected = "{\"a\":[\"0xab\",\"0x010203\",\"0x\"],\"b\":[]}";
        assertEquals(expected.length(), body.length());
        assertEquals(expected, render(body));
    }

    @Test
    void byteBufSourcesAreRetainedUntilTheBodyIsReleased() {
        ByteBuf direct =
                Unpooled.directBuffer().writeBytes(new byte[] {0, 1, 2, 3}).skipBytes(1);
        ByteBuf heap = Unpooled.buffer().writeBytes(new byte[] {(byte) 0xab});
        JsonBody body =
                JsonBody.builder().beginArray().hex(direct).hex(heap).endArray().build();
        assertEquals(2, direct.refCnt());
        assertEquals(1, direct.readerIndex());
        direct.release();
        heap.release();
        assertEquals("[\"0x010203\",\"0xab\"]", render(body));
        assertEquals(0, body.refCnt());
        assertEquals(0, direct.refCnt());
        assertEquals(0, heap.refCnt());
    }

    @Test
    void anAbandonedBuilderReleasesWhatItRetained() {
        ByteBuf source = Unpooled.directBuffer().writeLong(7);
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginArray().hex(source);
            assertEquals(2, source.refCnt());
            assertThrows(IllegalStateException.class, b::build);
        }
        assertEquals(1, source.refCnt());
        source.release();
    }

    @Test
    void closingAfterBuildLeavesTheBodyAlone() {
        ByteBuf source = Unpooled.directBuffer().writeLong(7);
        JsonBody body;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            body = b.hex(source).build();
        }
        source.release();
        assertEquals(1, source.refCnt());
        assertEquals("\"0x0000000000000007\"", render(body));
        assertEquals(0, source.refCnt());
    }

    @Test
    void byteBufferSourcesKeepPositionAndLimit() {
        ByteBuffer direct = ByteBuffer.allocateDirect(8).put(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        direct.position(2).limit(5);
        JsonBody body = JsonBody.builder().hex(direct).build();
        assertEquals(2, direct.position());
        assertEquals(5, direct.limit());
        assertEquals("\"0x030405\"", render(body));
    }
}
