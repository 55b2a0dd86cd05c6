package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.WebSocketConnection;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket as RFC 6455 says, frame by frame over a socket: a text message that is not UTF-8 closed with
 * {@code 1007} however its bytes fall across frames (8.1), close status codes checked ({@code 1002} for one that is not
 * to be sent, 7.4), each close frame written before the TCP connection ends, and the upgrade refused with {@code 400}
 * for HTTP/1.0, without {@code Host}, or with {@code Authorization} twice (4.2.1).
 */
class WebSocketRfcTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");
    private static EngineServerFixture server;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /** Reads a close frame with {@code status}, then the end of the stream. */
    private static void assertClosedWith(WebSocketConnection ws, int status, String what) throws Exception {
        WebSocketConnection.Frame close = ws.readFrame();
        assertEquals(WebSocketConnection.CLOSE, close.opcode(), what);
        assertEquals(status, ((close.payload()[0] & 0xFF) << 8) | (close.payload()[1] & 0xFF), what);
        assertEquals(-1, ws.read(), what);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void aTextMessageThatIsNotUtf8IsClosedWith1007WhereverItsBytesFall() throws Exception {
        byte[] head = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x".getBytes(US_ASCII);
        List<List<byte[]>> messages = List.of(
                List.of(concat(head, new byte[] {(byte) 0xC3, 0x28})), // a lead byte without its continuation
                List.of(concat(head, new byte[] {(byte) 0xE2, (byte) 0x82}), new byte[] {0x28}), // split, then wrong
                List.of(head, new byte[] {(byte) 0xF0, (byte) 0x9F}, new byte[] {(byte) 0x98}), // ends mid-character
                List.of(concat(head, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}))); // a surrogate
        for (List<byte[]> frames : messages) {
            try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
                for (int i = 0; i < frames.size(); i++) {
                    ws.sendFrame(
                            i == frames.size() - 1,
                            i == 0 ? WebSocketConnection.TEXT : WebSocketConnection.CONTINUATION,
                            frames.get(i));
                }
                assertClosedWith(ws, 1007, Arrays.toString(frames.get(frames.size() - 1)));
            }
        }
        // "é" split between two frames is UTF-8 all the same: the message is answered
        String json = request(2, "engine_exchangeCapabilities", "[[\"é\"]]");
        byte[] bytes = json.getBytes(UTF_8);
        int split = json.indexOf('é') + 1;
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(false, WebSocketConnection.TEXT, Arrays.copyOf(bytes, split));
            ws.sendFrame(true, WebSocketConnection.CONTINUATION, Arrays.copyOfRange(bytes, split, bytes.length));
            assertArrayEquals(server.post(json).body(), ws.readText().getBytes(UTF_8));
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void aCloseStatusThatIsNotToBeSentIsAnsweredWith1002AndOthersEchoed() throws Exception {
        for (int status : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 2000, 2999, 5000, 65535}) {
            try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
                ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[] {(byte) (status >>> 8), (byte) status});
                assertClosedWith(ws, 1002, "status " + status);
            }
        }
        for (int status : new int[] {1000, 1001, 1003, 1007, 1011, 1014, 3000, 4999}) {
            try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
                ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[] {(byte) (status >>> 8), (byte) status, 'o'});
                assertClosedWith(ws, status, "status " + status);
            }
        }
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[] {0x03, (byte) 0xE8, (byte) 0xFF});
            assertClosedWith(ws, 1007, "a reason that is not UTF-8");
        }
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[] {0x03});
            assertClosedWith(ws, 1002, "a close body of one byte");
        }
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, 0x3, new byte[0]); // a reserved opcode
            assertClosedWith(ws, 1002, "a reserved opcode");
        }
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[0]);
            WebSocketConnection.Frame close = ws.readFrame();
            assertEquals(WebSocketConnection.CLOSE, close.opcode());
            assertEquals(0, close.payload().length, "no status code, none in the answer");
            assertEquals(-1, ws.read());
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void theUpgradeIsRefusedForHttp10WithoutHostOrWithAHeaderTwice() throws Exception {
        String upgrade = new String(WebSocketConnection.upgrade(server.token(), "dGhlIHNhbXBsZSBub25jZQ=="), US_ASCII);
        List<String> refused = List.of(
                upgrade.replace("GET / HTTP/1.1", "GET / HTTP/1.0"),
                upgrade.replace("Host: 127.0.0.1\r\n", ""),
                upgrade.replace("\r\n\r\n", "\r\nAuthorization: Bearer " + server.token() + "\r\n\r\n"),
                upgrade.replace("\r\n\r\n", "\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n\r\n"),
                upgrade.replace("\r\n\r\n", "\r\nSec-WebSocket-Version: 8\r\n\r\n"));
        for (String request : refused) {
            try (WebSocketConnection ws = WebSocketConnection.connect(server.port())) {
                ws.send(request.getBytes(US_ASCII));
                String head = ws.readHead();
                String version = request.startsWith("GET / HTTP/1.0") ? "HTTP/1.0" : "HTTP/1.1";
                assertEquals(version + " 400 Bad Request", head.substring(0, head.indexOf("\r\n")), request);
                ws.sendText(CALL);
                int length = Integer.parseInt(head.replaceAll("(?s).*content-length: (\\d+)\r\n.*", "$1"));
                ws.readExactly(length);
                assertEquals(-1, ws.read(), "no upgrade: the connection is closed");
            }
        }
    }
}
