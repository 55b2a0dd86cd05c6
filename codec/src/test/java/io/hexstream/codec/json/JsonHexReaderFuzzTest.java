package io.hexstream.codec.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hexstream.codec.testing.JsonEvents;
import io.hexstream.codec.testing.JsonEvents.Policy;
import io.hexstream.codec.testing.JsonEvents.Recorder;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Jazzer target for {@link JsonHexReader}. The first input byte picks how to read the rest: bit 0 every string value as
 * hex (else the getBlobs shape's {@code blob} members and {@code proofs} elements), bits 1 to 6 the chunk size (1 to
 * 64), bit 7 hex into {@code byte[]} slices of at most 64 bytes (else growing buffers). Invariants: nothing but
 * {@link JsonDecodeException} escapes; reading in chunks gives what reading in one piece gives (the same events, or the
 * same one-line error); input that is not UTF-8 is refused; otherwise the reader accepts exactly what Jackson (with
 * {@link java.util.HexFormat} for the hex values, which must be strict {@code DATA} within bounds) accepts, with the
 * same events. Seeds in {@code JsonHexReaderFuzzTestInputs/}; the build fuzzes it for 60 s (the {@code fuzz} profile in
 * the POM).
 */
class JsonHexReaderFuzzTest {
    private static final int MAX_DEPTH = 100_000;
    private static final int MAX_TEXT = 1 << 20;

    @FuzzTest(maxDuration = "60s")
    void readsAsJacksonDoesWhateverTheSplit(byte[] input) {
        if (input.length == 0) {
            return;
        }
        Policy policy = (input[0] & 1) != 0 ? Policy.ALL : Policy.GET_BLOBS;
        int chunk = 1 + (input[0] >> 1 & 63);
        boolean arrays = (input[0] & 0x80) != 0;
        int maxBytes = arrays ? 64 : Integer.MAX_VALUE;
        byte[] json = Arrays.copyOfRange(input, 1, input.length);

        Object whole = outcome(json, json.length, policy, arrays, maxBytes);
        Object chunked = outcome(json, chunk, policy, arrays, maxBytes);
        assertEquals(whole, chunked, () -> "chunks of " + chunk);

        String text = utf8(json);
        if (text == null) {
            assertTrue(whole instanceof String, () -> "accepted malformed UTF-8: " + whole);
            return;
        }
        List<String> expected = JsonEvents.jackson(text, policy, maxBytes);
        if (expected == null) {
            assertTrue(whole instanceof String, () -> "accepted what Jackson refuses: " + text);
        } else {
            assertEquals(expected, whole, () -> "read " + text);
        }
    }

    /** The events, or the failure's message; anything but {@link JsonDecodeException} thrown fails the target. */
    private static Object outcome(byte[] json, int chunk, Policy policy, boolean arrays, int maxBytes) {
        Recorder recorder = new Recorder(policy, false, arrays, maxBytes);
        JsonHexReader reader = new JsonHexReader(recorder, MAX_TEXT, MAX_DEPTH);
        try {
            for (int offset = 0; offset < json.length; offset += chunk) {
                reader.feed(Unpooled.wrappedBuffer(json, offset, Math.min(chunk, json.length - offset)));
            }
            reader.end();
            return recorder.events;
        } catch (JsonDecodeException e) {
            assertNull(e.getCause());
            assertTrue(e.offset() >= 0 && e.offset() <= json.length, e::getMessage);
            return e.getMessage();
        } finally {
            recorder.releaseAll();
        }
    }

    private static String utf8(byte[] json) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(json))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
