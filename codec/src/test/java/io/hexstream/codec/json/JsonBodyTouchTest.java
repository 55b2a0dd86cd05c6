package io.hexstream.codec.json;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.TouchRecordingBuf;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link JsonBody#touch(Object)} hands the hint to every reference the body holds, for Netty's leak records. */
class JsonBodyTouchTest {

    @Test
    void aHintReachesEveryRetainedBuffer() {
        TouchRecordingBuf src = new TouchRecordingBuf(new byte[] {1, 2});
        TouchRecordingBuf digits = new TouchRecordingBuf("0a0b0c0d".getBytes(US_ASCII));
        try {
            JsonBody body = JsonBody.builder()
                    .beginArray()
                    .hex(src)
                    .hex(new byte[] {3})
                    .encodedHex(digits, true)
                    .encodedHexArray(digits, 2, 2, false)
                    .encodedHexElements(digits, 1, new int[] {3, -1, 0}, 0, 3, true)
                    .endArray()
                    .build();
            assertEquals(2, src.refCnt());
            assertEquals(5, digits.refCnt(), "the caller's, the value, the array and one per run of indices");

            body.touch("written to 10.0.0.1");
            assertEquals(List.of("written to 10.0.0.1"), src.hints());
            assertEquals(Collections.nCopies(4, "written to 10.0.0.1"), digits.hints());

            body.touch();
            assertEquals(Arrays.asList("written to 10.0.0.1", null), src.hints());
            assertEquals(8, digits.hints().size(), "once more per reference");
            body.release();
            assertEquals(1, src.refCnt());
            assertEquals(1, digits.refCnt());
        } finally {
            src.release();
            digits.release();
        }
    }
}
