package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.StreamEvent;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.RawH2cConnection;
import io.hexstream.server.testing.Scraper;
import io.netty.handler.codec.http2.Http2Error;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A getBlobsV2 stream of 128 blobs whose client never sends a WINDOW_UPDATE: the server sends the stream's initial
 * window of DATA and no more, counts the stream as stalled ({@code hexstream_http2_streams_total{event="stalled"}})
 * once it has written nothing for a second, and resets it ({@code RST_STREAM CANCEL}) once it has made no progress for
 * {@code --write-timeout}, counted as that limit's refusal; what the stream held is released (no leak) and the
 * connection goes on.
 */
class Http2StreamWriteTimeoutTest {
    @Test
    void aStreamWhoseWindowStaysShutIsCountedStalledThenReset() throws Exception {
        try (EngineServerFixture server =
                EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0", "--write-timeout", "3")) {
            Scraper scraper = new Scraper(server.server().metricsAddress());
            byte[] body = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)))
                    .getBytes(StandardCharsets.UTF_8);
            try (RawH2cConnection client = RawH2cConnection.open(server.port(), 0)) {
                client.headers(1, H2cConnection.post("/", server.token(), "application/json", body.length), false);
                client.data(1, body, true);
                client.flush();
                assertEquals(Http2Error.CANCEL.code(), client.reset(1).get(30, TimeUnit.SECONDS));
                assertEquals(H2cConnection.DEFAULT_WINDOW, client.dataBytes(), "DATA sent: the initial window");
                Exposition metrics = scraper.settled();
                assertEquals(
                        1,
                        metrics.value("hexstream_http2_streams_total{event=\"" + StreamEvent.STALLED.label() + "\"}"));
                assertEquals(
                        1,
                        metrics.value("hexstream_limit_refusals_total{limit=\""
                                + ServerMetrics.Limit.WRITE_TIMEOUT.label() + "\"}"));
                assertFalse(client.closed().isDone(), "the connection goes on");
            }
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }
}
