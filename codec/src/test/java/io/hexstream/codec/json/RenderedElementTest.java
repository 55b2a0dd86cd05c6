package io.hexstream.codec.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Array elements given rendered, each with its comma: the comma kept between values and dropped at the array's end, the
 * bytes handed on as slices, and every reference given back.
 */
class RenderedElementTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRunOfRenderedElementsIsOneSliceEachWithNothingBetween() throws Exception {
        ByteBuf a = rendered("{\"a\":[1,2]},");
        ByteBuf b = rendered("\"bee\",");
        try {
            JsonBody body = JsonBody.builder()
                    .beginObject()
                    .name("result")
                    .beginArray()
                    .renderedElement(a)
                    .renderedElement(b)
                    .nullValue()
                    .renderedElement(a)
                    .endArray()
                    .endObject()
                    .build();
            String expected = "{\"result\":[{\"a\":[1,2]},\"bee\",null,{\"a\":[1,2]}]}";
            assertEquals(expected.length(), body.length(), "exact length, the last comma left out");
            List<ByteBuf> chunks = chunks(body, 1024);
            try {
                List<String> texts = chunks.stream()
                        .map(chunk -> chunk.toString(StandardCharsets.UTF_8))
                        .toList();
                assertEquals(
                        List.of("{\"result\":[", "{\"a\":[1,2]},", "\"bee\",", "null,", "{\"a\":[1,2]}", "]}"), texts);
                for (int i : new int[] {1, 2, 4}) {
                    assertTrue(chunks.get(i).unwrap() != null, "a slice, not a copy: chunk " + i);
                }
                assertEquals(JSON.readTree(expected), JSON.readTree(String.join("", texts)), "well-formed JSON");
                assertEquals(1 + 2, a.refCnt(), "the caller's and its two slices, the body released");
            } finally {
                chunks.forEach(ByteBuf::release);
            }
            assertEquals(1, a.refCnt());
            assertEquals(1, b.refCnt());
        } finally {
            a.release();
            b.release();
        }
    }

    @Test
    void anElementLongerThanAChunkComesAsSeveralSlicesAndNestedArraysKeepTheirCommas() {
        String long1 = "\"" + "x".repeat(2500) + "\"";
        ByteBuf element = rendered(long1 + ",");
        try {
            JsonBody body = JsonBody.builder()
                    .beginArray()
                    .beginArray()
                    .renderedElement(element)
                    .endArray()
                    .renderedElement(element)
                    .beginArray()
                    .endArray()
                    .endArray()
                    .build();
            List<ByteBuf> chunks = chunks(body, 1024);
            try {
                StringBuilder text = new StringBuilder();
                chunks.forEach(chunk -> text.append(chunk.toString(StandardCharsets.UTF_8)));
                assertEquals("[[" + long1 + "]," + long1 + ",[]]", text.toString());
                assertTrue(chunks.stream().allMatch(chunk -> chunk.readableBytes() <= 1024), "at most a chunk each");
            } finally {
                chunks.forEach(ByteBuf::release);
            }
            assertEquals(1, element.refCnt());
        } finally {
            element.release();
        }
    }

    @Test
    void anElementOutsideAnArrayOrWithoutItsCommaIsRefusedAndRetainsNothing() {
        ByteBuf noComma = rendered("{}");
        ByteBuf element = rendered("{},");
        try {
            try (JsonBodyBuilder b = JsonBody.builder()) {
                assertThrows(IllegalStateException.class, () -> b.renderedElement(element), "top level");
                b.beginObject().name("a");
                assertThrows(IllegalStateException.class, () -> b.renderedElement(element), "an object's value");
            }
            try (JsonBodyBuilder b = JsonBody.builder()) {
                b.beginArray();
                assertThrows(IllegalArgumentException.class, () -> b.renderedElement(noComma));
                assertThrows(
                        IllegalArgumentException.class, () -> b.renderedElement(element.slice(2, 1)), "a comma alone");
                b.renderedElement(element);
                assertEquals(2, element.refCnt());
            }
            assertEquals(1, element.refCnt(), "an abandoned build releases it");
            assertEquals(1, noComma.refCnt());
        } finally {
            noComma.release();
            element.release();
        }
    }

    private static ByteBuf rendered(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
    }

    private static List<ByteBuf> chunks(JsonBody body, int chunkSize) {
        JsonBodyInput input = new JsonBodyInput(body, chunkSize);
        List<ByteBuf> chunks = new ArrayList<>();
        for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
            chunks.add(chunk);
        }
        input.close();
        return chunks;
    }
}
