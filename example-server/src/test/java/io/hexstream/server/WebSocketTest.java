package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import io.hexstream.server.testing.WebSocketConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Engine API over WebSocket on the Engine API's port, driven by the JDK's {@code java.net.http.WebSocket} (which
 * joins frames into messages) and by a socket speaking RFC 6455 ({@link WebSocketConnection}, which sees each frame):
 * the same bytes as over HTTP and as in the pool, replies in message order, frames of at most the chunk size, the JWT
 * on the upgrade only, pings and closes answered, the message size bound, and clients that leave mid-reply.
 */
class WebSocketTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The server's reply chunk size ({@code StreamedResponseEncoder.DEFAULT_CHUNK_SIZE}): 256 KiB. */
    private static final int CHUNK_SIZE = 256 * 1024;
    /** {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2). */
    private static final long BODY_LENGTH = 34 + 128 * 275_096L + 127 + 2;

    private static EngineServerFixture server;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA, "--max-request-bytes", "65536");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static URI wsUri() {
        return URI.create("ws://127.0.0.1:" + server.port() + "/");
    }

    @Test
    void aGetBlobsReplyIsTheHttpResponseByteForByteAndThePoolsBlobs() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        String json = request(1, "engine_getBlobsV2", hashParams(hashes));
        byte[] overHttp = server.post(json).body();
        assertEquals(BODY_LENGTH, overHttp.length);
        Messages messages = new Messages();
        WebSocket ws = connect(messages, server.token()).get(10, TimeUnit.SECONDS);
        try {
            ws.sendText(json, true).get(10, TimeUnit.SECONDS);
            String reply = messages.next();
            assertArrayEquals(overHttp, reply.getBytes(UTF_8));
            JsonNode result = MAPPER.readTree(reply).get("result");
            assertEquals(128, result.size());
            for (int i = 0; i < 128; i++) {
                assertBlobAndProofV2(server.server().pool().get(hashes.get(i)), result.get(i));
            }
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void messagesAreAnsweredInOrderBatchesToo() throws Exception {
        List<VersionedHash> hashes = server.hashes();
        List<String> sent = List.of(
                request(1, "engine_getBlobsV2", hashParams(hashes)),
                "{\"jsonrpc\":\"2.0\",\"method\":\"engine_exchangeCapabilities\",\"params\":[[]]}",
                "[" + request("\"a\"", "engine_getBlobsV2", hashParams(hashes.subList(0, 1))) + ","
                        + request(3, "engine_nosuchMethod", "[]") + "]",
                "{not json",
                request(4, "engine_exchangeCapabilities", "[[]]"));
        Messages messages = new Messages();
        WebSocket ws = connect(messages, server.token()).get(10, TimeUnit.SECONDS);
        try {
            for (String json : sent) {
                ws.sendText(json, true).get(10, TimeUnit.SECONDS);
            }
            for (String json : sent) {
                if (json.contains("\"method\":\"engine_exchangeCapabilities\",\"params\":[[]]}")
                        && !json.contains("\"id\"")) {
                    continue; // a notification: no reply
                }
                String overHttp = new String(server.post(json).body(), UTF_8);
                assertEquals(overHttp, messages.next(), json);
            }
            assertEquals(null, messages.poll(Duration.ofMillis(200)), "nothing more");
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void repliesAreTextFramesOfAtMostTheChunkSize() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        byte[] overHttp = server.post(json).body();
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendText(json);
            WebSocketConnection.Message message = ws.readMessage();
            assertEquals(BODY_LENGTH, message.length());
            assertArrayEquals(HttpConnection.sha256().digest(overHttp), message.sha256());
            assertTrue(message.largestFrame() <= CHUNK_SIZE, "largest frame " + message.largestFrame());
            assertTrue(
                    message.frames() >= BODY_LENGTH / CHUNK_SIZE,
                    message.frames() + " frames: one per chunk, not the reply whole");
        }
    }

    @Test
    void theUpgradeAnswersTheRfcsAcceptValueAndOffersNoExtension() throws Exception {
        try (WebSocketConnection ws = WebSocketConnection.connect(server.port())) {
            // RFC 6455 1.3: the key "dGhlIHNhbXBsZSBub25jZQ==" is accepted as "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".
            ws.send(WebSocketConnection.upgrade(server.token(), "dGhlIHNhbXBsZSBub25jZQ=="));
            assertEquals(
                    "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n"
                            + "sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
                    ws.readHead());
        }
    }

    @Test
    void aBadJwtOnTheUpgradeGets401WithTheReasonAndNoUpgrade() throws Exception {
        ExecutionException failed = assertThrows(
                ExecutionException.class,
                () -> connect(new Messages(), "not.a.jwt").get(10, TimeUnit.SECONDS));
        WebSocketHandshakeException refused = assertInstanceOf(WebSocketHandshakeException.class, failed.getCause());
        assertEquals(401, refused.getResponse().statusCode());

        for (String token : new String[] {null, "not.a.jwt"}) {
            try (WebSocketConnection ws = WebSocketConnection.connect(server.port())) {
                ws.send(WebSocketConnection.upgrade(token, "dGhlIHNhbXBsZSBub25jZQ=="));
                String head = ws.readHead();
                assertTrue(head.startsWith("HTTP/1.1 401 Unauthorized\r\n"), head);
                int length = Integer.parseInt(head.replaceAll("(?s).*content-length: (\\d+)\r\n.*", "$1"));
                String reason = new String(ws.readExactly(length), US_ASCII);
                assertTrue(reason.endsWith("\n") && reason.length() > 1, reason);
                ws.sendText(request(1, "engine_exchangeCapabilities", "[[]]"));
                assertEquals(-1, ws.read(), "no upgrade: the connection is closed");
            }
        }
    }

    @Test
    void aBadHandshakeGets400AndAPlainGetStill405() throws Exception {
        try (WebSocketConnection ws = WebSocketConnection.connect(server.port())) {
            ws.send(WebSocketConnection.upgrade(server.token(), "c2hvcnQ="));
            String head = ws.readHead();
            assertTrue(head.startsWith("HTTP/1.1 400 Bad Request\r\n"), head);
        }
        try (HttpConnection http = HttpConnection.open(server.port())) {
            http.send(("GET / HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + server.token() + "\r\n\r\n")
                    .getBytes(US_ASCII));
            HttpConnection.Head head = http.readHead();
            assertEquals(405, head.status());
            assertTrue(head.text().contains("allow: POST\r\n"), head.text());
        }
    }

    @Test
    void pingsAreAnsweredAndACloseIsAnsweredThenTheConnectionCloses() throws Exception {
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, WebSocketConnection.PING, "are you there".getBytes(US_ASCII));
            WebSocketConnection.Frame pong = ws.readFrame();
            assertEquals(WebSocketConnection.PONG, pong.opcode());
            assertEquals("are you there", new String(pong.payload(), US_ASCII));
            // A message in two frames, a ping between them (RFC 6455 5.4: control frames may come between).
            String json = request(7, "engine_exchangeCapabilities", "[[]]");
            ws.sendFrame(false, WebSocketConnection.TEXT, json.substring(0, 10).getBytes(US_ASCII));
            ws.sendFrame(true, WebSocketConnection.PING, new byte[0]);
            ws.sendFrame(
                    true, WebSocketConnection.CONTINUATION, json.substring(10).getBytes(US_ASCII));
            assertEquals(WebSocketConnection.PONG, ws.readFrame().opcode());
            assertEquals(new String(server.post(json).body(), UTF_8), ws.readText());

            ws.sendFrame(true, WebSocketConnection.CLOSE, new byte[] {0x03, (byte) 0xE8}); // 1000
            WebSocketConnection.Frame close = ws.readFrame();
            assertEquals(WebSocketConnection.CLOSE, close.opcode());
            assertArrayEquals(new byte[] {0x03, (byte) 0xE8}, close.payload());
            assertEquals(-1, ws.read());
        }
    }

    @Test
    void aMessageOverMaxRequestBytesClosesWith1009() throws Exception {
        byte[] half = new byte[40_000];
        java.util.Arrays.fill(half, (byte) ' ');
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(false, WebSocketConnection.TEXT, half);
            ws.sendFrame(true, WebSocketConnection.CONTINUATION, half);
            WebSocketConnection.Frame close = ws.readFrame();
            assertEquals(WebSocketConnection.CLOSE, close.opcode());
            assertEquals(1009, status(close));
            assertEquals(-1, ws.read());
        }
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendFrame(true, WebSocketConnection.TEXT, new byte[70_000]); // one frame over the limit
            WebSocketConnection.Frame close = ws.readFrame();
            assertEquals(WebSocketConnection.CLOSE, close.opcode());
            assertEquals(1009, status(close));
        }
    }

    @Test
    void clientsThatLeaveMidReplyLeaveNoLeakAndTheServerServesOn() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        byte[] overHttp = server.post(json).body();
        int before = ServerSockets.open(server.port()); // the HTTP client's pooled connection
        Random random = new Random(25);
        for (int i = 0; i < 24; i++) {
            try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
                ws.sendText(json);
                ws.sendText(json); // a second reply waiting its turn
                int read = i % 4 == 0 ? 0 : random.nextInt(3 * CHUNK_SIZE);
                ws.readExactly(read);
                if (i % 2 == 0) {
                    ws.socket().setSoLinger(true, 0); // a reset, not a FIN
                }
            }
        }
        assertEquals(before, ServerSockets.awaitAtMost(server.port(), before, Duration.ofSeconds(10)));
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
        try (WebSocketConnection ws = WebSocketConnection.open(server.port(), server.token())) {
            ws.sendText(json);
            assertArrayEquals(
                    HttpConnection.sha256().digest(overHttp), ws.readMessage().sha256());
        }
    }

    @Test
    void idleConnectionsAndThoseOfAStoppingServerGetAGoingAwayClose() throws Exception {
        try (EngineServerFixture idle = EngineServerFixture.start(Fork.OSAKA, Duration.ofSeconds(1));
                WebSocketConnection ws = WebSocketConnection.open(idle.port(), idle.token())) {
            long started = System.nanoTime();
            assertGoingAway(ws);
            long waited = System.nanoTime() - started;
            assertTrue(waited >= 900_000_000L, waited + " ns");
        }
        WebSocketConnection ws;
        try (EngineServerFixture stopping = EngineServerFixture.start(Fork.OSAKA)) {
            ws = WebSocketConnection.open(stopping.port(), stopping.token());
        }
        try (ws) {
            assertGoingAway(ws);
        }
    }

    /** Reads a close frame with 1001 (going away), then the end of the stream. */
    private static void assertGoingAway(WebSocketConnection ws) throws Exception {
        WebSocketConnection.Frame close = ws.readFrame();
        assertEquals(WebSocketConnection.CLOSE, close.opcode());
        assertEquals(1001, status(close));
        assertEquals(-1, ws.read());
    }

    /** A close frame's status code (RFC 6455 5.5.1: its first two bytes, big-endian). */
    private static int status(WebSocketConnection.Frame close) {
        return ((close.payload()[0] & 0xFF) << 8) | (close.payload()[1] & 0xFF);
    }

    private static CompletableFuture<WebSocket> connect(Messages messages, String token) {
        return HttpClient.newHttpClient()
                .newWebSocketBuilder()
                .header("Authorization", "Bearer " + token)
                .buildAsync(wsUri(), messages);
    }

    /** The JDK client's listener: each whole text message, as the client joined its frames. */
    private static final class Messages implements WebSocket.Listener {
        private final LinkedBlockingQueue<String> whole = new LinkedBlockingQueue<>();
        private final StringBuilder part = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                whole.add(part.toString());
                part.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            whole.add("binary?");
            ws.request(1);
            return null;
        }

        String next() throws InterruptedException {
            String message = poll(Duration.ofSeconds(30));
            if (message == null) {
                throw new AssertionError("no message in 30 s");
            }
            return message;
        }

        String poll(Duration timeout) throws InterruptedException {
            return whole.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
