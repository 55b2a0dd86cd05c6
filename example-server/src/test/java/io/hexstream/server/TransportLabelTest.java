package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.WebSocketConnection;
import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexstream_transport_responses_total} counts the responses of each transport under its label ({@code http},
 * {@code ws}, {@code ipc}, {@code h2}, {@code ipc-http}), the HTTP/2 streams opened are counted, and the replies of
 * WebSocket and IPC are counted by method with HTTP's.
 */
class TransportLabelTest {
    private static final String CAPABILITIES = "engine_exchangeCapabilities";

    @Test
    void eachTransportIsCountedUnderItsLabel(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("engine.ipc");
        try (EngineServerFixture server =
                EngineServerFixture.start(Fork.OSAKA, "--metrics-port", "0", "--ipc-path", socket.toString())) {
            String json = request(1, CAPABILITIES, "[[]]");
            server.post(json);
            try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
                for (int i = 0; i < 2; i++) {
                    ws.sendText(json);
                    ws.readText();
                }
            }
            try (SocketChannel ipc = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                for (int i = 0; i < 3; i++) {
                    ipc.write(ByteBuffer.wrap((json + "\n").getBytes(UTF_8)));
                    readLine(ipc);
                }
            }
            HttpClient h2 =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
            for (int i = 0; i < 2; i++) { // the first upgrades (stream 1), the second is stream 3
                HttpResponse<String> reply = h2.send(
                        HttpRequest.newBuilder(server.uri())
                                .header("Authorization", "Bearer " + server.token())
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(HttpClient.Version.HTTP_2, reply.version());
            }
            try (SocketChannel ipc = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                for (int i = 0; i < 4; i++) { // HTTP/1.1 on the IPC socket, told apart by its request line
                    ipc.write(ByteBuffer.wrap(("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json"
                                    + "\r\nContent-Length: " + json.length() + "\r\n\r\n" + json)
                            .getBytes(UTF_8)));
                    readHttpResponse(ipc);
                }
            }
            Map<String, Double> samples = new Scraper(server.server().metricsAddress())
                    .settled()
                    .families()
                    .get("hexstream_transport_responses_total")
                    .samples();
            assertEquals(
                    Map.of(
                            "hexstream_transport_responses_total{transport=\"http\"}", 1.0,
                            "hexstream_transport_responses_total{transport=\"ws\"}", 2.0,
                            "hexstream_transport_responses_total{transport=\"ipc\"}", 3.0,
                            "hexstream_transport_responses_total{transport=\"h2\"}", 2.0,
                            "hexstream_transport_responses_total{transport=\"ipc-http\"}", 4.0),
                    samples);
            assertEquals(
                    2.0,
                    new Scraper(server.server().metricsAddress())
                            .settled()
                            .value("hexstream_http2_streams_total{event=\"opened\"}"));
            assertEquals(
                    12.0,
                    new Scraper(server.server().metricsAddress())
                            .settled()
                            .value("hexstream_rpc_requests_total{method=\"" + CAPABILITIES + "\",outcome=\"ok\"}"));
        }
        assertEquals(false, Files.exists(socket));
    }

    /** Reads one HTTP/1.1 response with a {@code Content-Length}, head and body. */
    private static void readHttpResponse(SocketChannel channel) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            head.append((char) readByte(channel));
        }
        Matcher length = Pattern.compile("(?i)content-length: (\\d+)").matcher(head);
        assertEquals(true, length.find(), head.toString());
        for (int i = Integer.parseInt(length.group(1)); i > 0; i--) {
            readByte(channel);
        }
    }

    private static int readByte(SocketChannel channel) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        if (channel.read(one) < 0) {
            throw new IOException("closed");
        }
        return one.get(0);
    }

    private static void readLine(SocketChannel channel) throws IOException {
        ByteBuffer one = ByteBuffer.allocate(1);
        do {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("closed");
            }
        } while (one.get(0) != '\n');
    }
}
