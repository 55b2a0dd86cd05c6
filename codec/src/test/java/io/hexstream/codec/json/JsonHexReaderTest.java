package io.hexstream.codec.json;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.hexstream.codec.testing.GetBlobsCollector;
import io.hexstream.codec.testing.JsonEvents;
import io.hexstream.codec.testing.JsonEvents.Policy;
import io.hexstream.codec.testing.JsonEvents.Recorder;
import io.hexstream.codec.testing.SeededTrials;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link JsonHexReader} against Jackson and {@link java.util.HexFormat} (the independent reading), over every split of
 * small documents, random splits of a 128-blob getBlobsV2 response checked against its source bytes, documents written
 * differently from this project's writer, and malformed input.
 */
class JsonHexReaderTest {
    private static final int ANY = Integer.MAX_VALUE;

    /** The same document written in other ways: whitespace, member order, extra members, escapes, UTF-8. */
    private static final List<String> WRITTEN_DIFFERENTLY = List.of(
            "{ \"id\" : 7 ,\n\t\"result\" : [ {\"proofs\":[\"0xAB\", \"0x00\"], \"extra\": {\"a\":[1,-2.5e+3,true,"
                    + "false,null,{}]}, \"blob\" : \"0x0aBc\"} , null ],\"jsonrpc\":\"2.0\"}\r\n",
            "{\"\\u0072esult\":[{\"bl\\u006fb\":\"\\u0030x00fF\",\"proofs\":[\"0\\u0078\\u0031\\u0032\",\"0x\"],"
                    + "\"note\":\"tab\\tq\\\"\\\\\\/\\b\\f\\n\\r\\u00e9\\ud83d\\ude00 é 😀\"}]}",
            "{\"名前\":\"значение 😀\",\"blob\":\"0x\",\"proofs\":[],\"\":[[\"0x00\"],[]],\"n\":[0,-0,1E9,0.5e-7]}",
            "  -12.5E+3 ",
            "\"plain\"",
            "[]",
            "{}",
            "[[[]]]",
            "true",
            "null",
            "[\"\\u00E9\\uD834\\uDD1E\",\"\\/\",\"\\\"\",\"\"]");

    // ---------------------------------------------------------------- splits

    @Test
    void everyChunkSizeFrom1To64OfAOneBlobResponse() {
        byte[] json = BlobFixtures.jackson(1L, List.of(BlobFixtures.randomEntry(new Random(23))));
        List<String> expected = JsonEvents.jackson(new String(json, UTF_8), Policy.GET_BLOBS, ANY);
        assertNotNull(expected);
        ByteBuf direct = untracked(json);
        for (int chunk = 1; chunk <= 64; chunk++) {
            // Destinations in leak-tracked buffers for the larger chunks only: paranoid tracking takes a stack
            // trace per access, and one-byte chunks write byte by byte.
            Recorder recorder = new Recorder(Policy.GET_BLOBS, chunk % 2 == 0, chunk < 60, 131_072);
            read(json, fixed(json.length, chunk), chunk % 4 < 2 ? null : direct, recorder);
            assertEquals(expected, recorder.events, "chunks of " + chunk);
        }
    }

    @Test
    void everySplitOfDocumentsWrittenDifferently() {
        for (String document : WRITTEN_DIFFERENTLY) {
            byte[] json = document.getBytes(UTF_8);
            List<String> expected = JsonEvents.jackson(document, Policy.GET_BLOBS, ANY);
            assertNotNull(expected, document);
            for (int first = 0; first <= json.length; first++) {
                for (int second = first; second <= json.length; second++) {
                    Recorder recorder = new Recorder(Policy.GET_BLOBS, second % 17 == 0, first % 3 == 0, 64);
                    read(json, List.of(first, second - first, json.length - second), null, recorder);
                    assertEquals(expected, recorder.events, document + " split at " + first + ", " + second);
                }
            }
        }
    }

    @Test
    void randomSplitsOfA128BlobResponseGiveItsSourceBytes() {
        List<Entry> entries = BlobFixtures.randomEntries(new Random(0x23), 128, 0.05);
        byte[] json = BlobFixtures.jackson("getBlobs-1", entries);
        ByteBuf direct = untracked(json);
        SeededTrials.run(0x23, 4, (random, trial) -> {
            List<Integer> sizes = new ArrayList<>();
            for (int left = json.length; left > 0; ) {
                int size = Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 100 : 200_000));
                sizes.add(size);
                left -= size;
            }
            GetBlobsCollector collector = GetBlobsCollector.byIndex();
            try {
                read(json, sizes, trial % 2 == 0 ? direct : null, collector);
                assertEquals(entries.size(), collector.entries().size());
                for (int i = 0; i < entries.size(); i++) {
                    Entry want = entries.get(i);
                    Entry got = collector.entries().get(i);
                    assertEquals(want == null, got == null, "null entry " + i);
                    if (want != null) {
                        assertArrayEquals(want.blob(), got.blob(), "blob " + i);
                        assertArrayEquals(want.proofs(), got.proofs(), "proofs " + i);
                    }
                }
            } finally {
                collector.release();
            }
        });
    }

    // ---------------------------------------------------------------- faults

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"result":[{"blob":"0x0"}]}      | result[0].blob: odd number of hex digits at byte 23
            {"result":[{"blob":"0x0g"}]}     | result[0].blob: invalid hex character 'g' at byte 23
            {"blob":"00"}                    | blob: expected 'x' of the 0x prefix, found '0' at byte 10
            {"blob":"0X00"}                  | blob: expected 'x' of the 0x prefix, found 'X' at byte 10
            {"blob":"x00"}                   | blob: expected '0' of the 0x prefix, found 'x' at byte 9
            {"blob":"0x010203"}              | blob: hex value longer than 2 bytes at byte 15
            {"blob":"0x01"}                  | blob: hex value of 1 bytes, expected at least 2 at byte 13
            {"blob":"0x\\"0"}                | blob: invalid hex character '"' at byte 12
            {"proofs":["0x0000","0x0"]}      | proofs[1]: odd number of hex digits at byte 24
            {"result":[1,,2]}                | result[1]: expected a value, found ',' at byte 13
            {"a" 1}                          | a: expected ':', found '1' at byte 5
            [1 2]                            | [0]: expected ',' or ']', found '2' at byte 3
            {"result":[{"blob":"0x00         | result[0].blob: unexpected end of input at byte 24
            `{"result":[{"blob":"0x0000"},`  | result[1]: unexpected end of input at byte 29
            [tru]                            | [0]: expected 'true', found ']' at byte 4
            "\\x"                            | invalid escape \\x at byte 2
            "\\u12G4"                        | expected a hex digit in a \\u escape, found 'G' at byte 5
            {"a\\udc00":1}                  | unpaired surrogate U+DC00 in a name at byte 8
            {"\\ud800":1}                   | unpaired surrogate U+D800 in a name at byte 8
            {"\\ud800a":1}                  | unpaired surrogate U+D800 in a name at byte 8
            {} x                             | unexpected 'x' after the top-level value at byte 3
            {"abcdefg":1}                    | name longer than 6 characters at byte 8
            ["abcdefg"]                      | [0]: string longer than 6 characters at byte 8
            [12345678]                       | [0]: number longer than 6 characters at byte 7
            [01]                             | [0]: expected ',' or ']', found '1' at byte 2
            [-]                              | [0]: expected a digit in a number, found ']' at byte 2
            [1.]                             | [0]: expected a digit in a number, found ']' at byte 3
            [1e]                             | [0]: expected a digit or a sign in a number, found ']' at byte 3
            [[[[1]]]]                        | [0][0][0]: nesting deeper than 3 levels at byte 3
            {"a":'1'}                        | a: expected a value, found ''' at byte 5
            ``                               | unexpected end of input at byte 0
            `  `                             | unexpected end of input at byte 2
            """)
    void malformedInputGivesItsOneLineErrorWhateverTheSplit(String json, String message) {
        byte[] bytes = json.getBytes(UTF_8);
        for (int chunk = 1; chunk <= Math.max(1, bytes.length); chunk++) {
            assertEquals(message, failure(bytes, chunk, 2, 6).getMessage(), "chunks of " + chunk);
        }
    }

    @Test
    void malformedBytesGiveTheirOneLineError() {
        assertEquals(
                "[0]: unescaped control character U+000A in a string at byte 3",
                failure("[\"a\nb\"]".getBytes(UTF_8), 1, 0, 64).getMessage());
        assertEquals(
                "[0]: invalid UTF-8 byte 0x28, expected a continuation byte at byte 3",
                failure("[\"\u00c3(\"]".getBytes(ISO_8859_1), 1, 0, 64).getMessage());
        assertEquals(
                "[0]: invalid UTF-8 byte 0xC0 at byte 2",
                failure("[\"\u00c0\u0080\"]".getBytes(ISO_8859_1), 1, 0, 64).getMessage());
        assertEquals(
                "[0]: invalid UTF-8 sequence for U+D800 at byte 4",
                failure("[\"\u00ed\u00a0\u0080\"]".getBytes(ISO_8859_1), 1, 0, 64)
                        .getMessage());
        assertEquals(
                "blob: invalid hex character, byte 0xC3 at byte 12",
                failure("{\"blob\":\"0x0é\"}".getBytes(UTF_8), 1, 0, 64).getMessage());
        assertEquals(
                "expected a value, found byte 0xEF at byte 0",
                failure("\ufeff{}".getBytes(UTF_8), 1, 0, 64).getMessage());
    }

    @Test
    void anExceptionNamesPathFaultAndOffsetApart() {
        JsonDecodeException e = failure("{\"result\":[{\"blob\":\"0x0\"}]}".getBytes(UTF_8), 5, 0, 64);
        assertEquals("result[0].blob", e.path());
        assertEquals("odd number of hex digits", e.fault());
        assertEquals(23, e.offset());
        assertEquals(
                "result[3].proofs[17]: odd number of hex digits at byte 4,194,311",
                new JsonDecodeException("result[3].proofs[17]", "odd number of hex digits", 4_194_311).getMessage());
    }

    @Test
    void aFailedReaderRefusesMoreInput() {
        JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {});
        assertThrows(JsonDecodeException.class, () -> reader.feed(Unpooled.copiedBuffer("[}", UTF_8)));
        assertThrows(IllegalStateException.class, () -> reader.feed(Unpooled.copiedBuffer("]", UTF_8)));
        assertThrows(IllegalStateException.class, reader::end);

        JsonHexReader thrown = new JsonHexReader(new JsonTokenListener() {
            @Override
            public void beginArray() {
                throw new IllegalStateException("listener");
            }
        });
        assertThrows(IllegalStateException.class, () -> thrown.feed(Unpooled.copiedBuffer("[", UTF_8)));
        assertThrows(IllegalStateException.class, () -> thrown.feed(Unpooled.copiedBuffer("]", UTF_8)));
    }

    // ---------------------------------------------------------------- destinations

    @Test
    void aByteArraySliceGetsExactlyTheValue() {
        byte[] dst = new byte[8];
        Arrays.fill(dst, (byte) 0x55);
        int[] ended = {-1};
        JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {
            @Override
            public void stringStart(StringValue value) {
                value.hex(dst, 2, 0, 4);
            }

            @Override
            public void hexEnd(int length) {
                ended[0] = length;
            }
        });
        feedAll(reader, "\"0x0a0B\"", 1);
        reader.end();
        assertEquals(2, ended[0]);
        assertArrayEquals(new byte[] {0x55, 0x55, 0x0a, 0x0b, 0x55, 0x55, 0x55, 0x55}, dst);
    }

    @Test
    void skippedAndTextValuesAreReadAsChosen() {
        List<String> seen = new ArrayList<>();
        JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {
            @Override
            public void stringStart(StringValue value) {
                seen.add("start " + value.path() + " " + value.name() + " " + value.index() + " " + value.depth());
                switch (value.index()) {
                    case 0 -> value.skip();
                    case 1 -> value.skipHex(1, 1);
                    default -> value.text();
                }
            }

            @Override
            public void string(CharSequence value) {
                seen.add("string " + value);
            }

            @Override
            public void hexEnd(int length) {
                seen.add("hex " + length);
            }
        });
        feedAll(reader, "[\"not hex\",\"0xfF\",\"0x00\"]", 3);
        reader.end();
        assertTrue(reader.isComplete());
        assertEquals(
                List.of("start [0] null 0 1", "start [1] null 1 1", "hex 1", "start [2] null 2 1", "string 0x00"),
                seen);
    }

    @Test
    void aDestinationIsChosenDuringStringStartOnly() {
        StringValue[] kept = new StringValue[1];
        JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {
            @Override
            public void stringStart(StringValue value) {
                kept[0] = value;
                assertThrows(IllegalArgumentException.class, () -> value.hex(Unpooled.buffer(1, 1), 0, 2));
                assertThrows(IllegalArgumentException.class, () -> value.skipHex(2, 1));
                assertThrows(IndexOutOfBoundsException.class, () -> value.hex(new byte[2], 1, 0, 2));
            }
        });
        feedAll(reader, "\"a\"", 1);
        assertThrows(IllegalStateException.class, () -> kept[0].skip());
    }

    @Test
    void hexEndComesWithTheClosingQuote() {
        byte[] json = "{\"blob\":\"0x0102\",\"rest\":[1,2,3]}".getBytes(UTF_8);
        int quote = 15;
        int[] ended = {-1};
        ByteBuf blob = PooledByteBufAllocator.DEFAULT.directBuffer(2);
        try {
            JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {
                @Override
                public void stringStart(StringValue value) {
                    value.hex(blob, 2, 2);
                }

                @Override
                public void hexEnd(int length) {
                    ended[0] = length;
                }
            });
            reader.feed(Unpooled.wrappedBuffer(json, 0, quote));
            assertEquals(-1, ended[0]);
            assertEquals(2, blob.readableBytes());
            reader.feed(Unpooled.wrappedBuffer(json, quote, 1));
            assertEquals(2, ended[0]);
            assertEquals(0x0102, blob.getUnsignedShort(0));
            assertFalse(reader.isComplete());
            reader.feed(Unpooled.wrappedBuffer(json, quote + 1, json.length - quote - 1));
            reader.end();
        } finally {
            blob.release();
        }
    }

    @Test
    void tokenOffsetNamesTheByteThatCompletedEachTokenWhateverTheSplit() {
        String json = "{\"k\": [true, \"0x0a\" ,\"t\", null, {}], \"n\": -1.5 }";
        // Each event with the byte that completed it, found by hand in the text above.
        List<String> expected = List.of(
                "{@0",
                "name@3",
                "[@6",
                "true@10",
                "hex@13",
                "hex-end@18",
                "string@23",
                "null@29",
                "{@32",
                "}@33",
                "]@34",
                "name@39",
                "number@46",
                "}@47");
        for (int chunk = 1; chunk <= json.length(); chunk++) {
            List<String> events = new ArrayList<>();
            JsonHexReader[] reader = new JsonHexReader[1];
            reader[0] = new JsonHexReader(new JsonTokenListener() {
                private void event(String what) {
                    events.add(what + "@" + reader[0].tokenOffset());
                }

                @Override
                public void beginObject() {
                    event("{");
                }

                @Override
                public void endObject() {
                    event("}");
                }

                @Override
                public void beginArray() {
                    event("[");
                }

                @Override
                public void endArray() {
                    event("]");
                }

                @Override
                public void name(CharSequence name) {
                    event("name");
                }

                @Override
                public void stringStart(StringValue value) {
                    if (value.index() == 1) {
                        event("hex");
                        value.skipHex(0, 8);
                    }
                }

                @Override
                public void string(CharSequence value) {
                    event("string");
                }

                @Override
                public void hexEnd(int length) {
                    event("hex-end");
                }

                @Override
                public void number(CharSequence number) {
                    event("number");
                }

                @Override
                public void bool(boolean value) {
                    event(Boolean.toString(value));
                }

                @Override
                public void nullValue() {
                    event("null");
                }
            });
            feedAll(reader[0], json, chunk);
            reader[0].end();
            assertEquals(expected, events, "chunks of " + chunk);
        }
    }

    @Test
    void tokenOffsetOfANumberEndedByTheEndOfInputIsTheInputsLength() {
        long[] offset = {-1};
        JsonHexReader[] reader = new JsonHexReader[1];
        reader[0] = new JsonHexReader(new JsonTokenListener() {
            @Override
            public void number(CharSequence number) {
                offset[0] = reader[0].tokenOffset();
            }
        });
        reader[0].feed(Unpooled.wrappedBuffer(" 125".getBytes(UTF_8)));
        reader[0].end();
        assertEquals(4, offset[0]);
    }

    @Test
    void feedMovesTheChunksReaderIndexAndLeavesItsReferenceCount() {
        JsonHexReader reader = new JsonHexReader(new JsonTokenListener() {});
        ByteBuf chunk = Unpooled.directBuffer(8).writeBytes("[1, 2]".getBytes(UTF_8));
        try {
            reader.feed(chunk);
            assertEquals(0, chunk.readableBytes());
            assertEquals(1, chunk.refCnt());
            assertEquals(6, reader.offset());
        } finally {
            chunk.release();
        }
        reader.end();
    }

    // ---------------------------------------------------------------- helpers

    /**
     * {@code json} in a direct buffer the leak detector does not track (its memory is a {@code ByteBuffer}'s, freed by
     * the collector): chunks are sliced from it by the hundred thousand.
     */
    private static ByteBuf untracked(byte[] json) {
        return Unpooled.wrappedBuffer(
                ByteBuffer.allocateDirect(json.length).put(json).flip());
    }

    /** Chunk sizes of {@code chunk} bytes over {@code length}. */
    private static List<Integer> fixed(int length, int chunk) {
        List<Integer> sizes = new ArrayList<>();
        for (int left = length; left > 0; left -= chunk) {
            sizes.add(Math.min(chunk, left));
        }
        return sizes;
    }

    /**
     * Feeds {@code json} in chunks of {@code sizes} (empty ones included): separate heap copies, or slices of
     * {@code direct} (which holds the same bytes) when it is not null; then ends the input.
     */
    static void read(byte[] json, List<Integer> sizes, ByteBuf direct, JsonTokenListener listener) {
        JsonHexReader reader = new JsonHexReader(listener);
        try {
            int offset = 0;
            for (int size : sizes) {
                ByteBuf chunk = direct != null
                        ? direct.slice(offset, size)
                        : Unpooled.wrappedBuffer(Arrays.copyOfRange(json, offset, offset + size));
                reader.feed(chunk);
                offset += size;
            }
            reader.end();
        } finally {
            if (listener instanceof Recorder recorder) {
                recorder.releaseAll();
            }
        }
    }

    private static void feedAll(JsonHexReader reader, String json, int chunk) {
        byte[] bytes = json.getBytes(UTF_8);
        for (int offset = 0; offset < bytes.length; offset += chunk) {
            reader.feed(Unpooled.wrappedBuffer(bytes, offset, Math.min(chunk, bytes.length - offset)));
        }
    }

    /**
     * The failure reading {@code json} in chunks of {@code chunk}: {@code blob} members and elements of arrays at depth
     * 2 as hex of {@code minBytes} to 2 bytes, text of at most {@code maxText}, depth 3.
     */
    private static JsonDecodeException failure(byte[] json, int chunk, int minBytes, int maxText) {
        List<ByteBuf> destinations = new ArrayList<>();
        JsonHexReader reader = new JsonHexReader(
                new JsonTokenListener() {
                    @Override
                    public void stringStart(StringValue value) {
                        if ("blob"
                                        .equals(
                                                value.name() == null
                                                        ? null
                                                        : value.name().toString())
                                || value.index() >= 0 && value.depth() == 2) {
                            ByteBuf dst = Unpooled.directBuffer(2);
                            destinations.add(dst);
                            value.hex(dst, Math.min(minBytes, 2), 2);
                        }
                    }
                },
                maxText,
                3);
        try {
            JsonDecodeException e = assertThrows(JsonDecodeException.class, () -> {
                for (int offset = 0; offset < json.length; offset += chunk) {
                    reader.feed(Unpooled.wrappedBuffer(json, offset, Math.min(chunk, json.length - offset)));
                }
                reader.end();
            });
            assertNull(e.getCause());
            return e;
        } finally {
            destinations.forEach(ByteBuf::release);
        }
    }
}
