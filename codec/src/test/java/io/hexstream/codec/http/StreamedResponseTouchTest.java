package io.hexstream.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.testing.TouchRecordingBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@link StreamedResponse#touch(Object)} passes the hint on, through the body, to the buffers it retains. */
class StreamedResponseTouchTest {

    @Test
    void aHintReachesTheBodysBuffers() {
        TouchRecordingBuf src = new TouchRecordingBuf(new byte[] {(byte) 0xab});
        try {
            StreamedResponse response = new StreamedResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.OK,
                    true,
                    JsonBody.builder().hex(src).build());
            response.touch("queued").touch();
            assertEquals(Arrays.asList("queued", null), src.hints());
            response.release();
            assertEquals(1, src.refCnt());
        } finally {
            src.release();
        }
    }
}
