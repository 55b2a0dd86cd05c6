package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.Poll;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Scraper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The transport's counts against what two clients received on the wire: bytes written equal the bytes read (heads and
 * bodies, a refusal's included), connections open follow the clients, nothing is in flight between requests.
 */
class TransportMetricsTest {
    @Test
    void bytesWrittenAreTheBytesReceived() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0")) {
            Scraper scraper = new Scraper(server.server().metricsAddress());
            long received = 0;
            try (HttpConnection first = HttpConnection.open(server.port());
                    HttpConnection second = HttpConnection.open(server.port())) { // the 401 ends the first
                received += exchange(
                        first,
                        HttpConnection.post(
                                server.token(), request(1, "engine_getBlobsV2", hashParams(server.hashes()))));
                received += exchange(
                        second, HttpConnection.post(server.token(), request(2, "engine_exchangeCapabilities", "[[]]")));
                assertEquals(2, scraper.settled().value("hexstream_http_connections"));
                received +=
                        exchange(first, HttpConnection.post(null, request(3, "engine_exchangeCapabilities", "[[]]")));
                Exposition metrics = scraper.settled();
                assertEquals(received, metrics.value("hexstream_http_written_bytes_total"));
                assertEquals(0, metrics.value("hexstream_http_responses_in_flight"));
            }
            Poll.within(() -> scraper.scrape().value("hexstream_http_connections") == 0, Duration.ofSeconds(5));
            assertEquals(0, scraper.scrape().value("hexstream_http_connections"));
        }
    }

    /** Sends {@code request}, reads the whole response; the bytes read. */
    private static long exchange(HttpConnection connection, byte[] request) throws Exception {
        connection.send(request);
        HttpConnection.Head head = connection.readHead();
        return head.size() + connection.readBody(head).length;
    }
}
