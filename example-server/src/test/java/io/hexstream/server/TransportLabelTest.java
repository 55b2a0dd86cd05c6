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
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hexstream_transport_responses_total} counts the responses of each transport under its label ({@code http},
 * {@code ws}, {@code ipc}), and the replies of WebSocket and IPC are counted by method with HTTP's.
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
            Map<String, Double> samples = new Scraper(server.server().metricsAddress())
                    .settled()
                    .families()
                    .get("hexstream_transport_responses_total")
                    .samples();
            assertEquals(
                    Map.of(
                            "hexstream_transport_responses_total{transport=\"http\"}", 1.0,
                            "hexstream_transport_responses_total{transport=\"ws\"}", 2.0,
                            "hexstream_transport_responses_total{transport=\"ipc\"}", 3.0),
                    samples);
            assertEquals(
                    6.0,
                    new Scraper(server.server().metricsAddress())
                            .settled()
                            .value("hexstream_rpc_requests_total{method=\"" + CAPABILITIES + "\",outcome=\"ok\"}"));
        }
        assertEquals(false, Files.exists(socket));
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
