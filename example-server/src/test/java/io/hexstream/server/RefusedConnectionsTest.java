package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Refused requests give up their connection and its place: each refusal is answered with {@code Connection: close} and
 * the connection ends, its reply delivered even while the refused body is still coming (a lingering close, not a
 * reset), the place free as soon as the peer has gone; and connections that have not passed the JWT give their place to
 * a new one when all are taken, those that have never do.
 */
class RefusedConnectionsTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");
    private static final String CAPABILITIES =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"engine_getBlobsV2\",\"engine_getBlobsV3\""
                    + ",\"engine_getBlobsV4\"]}";
    /** A well-formed token signed with another secret than the server's. */
    private static final String WRONG_TOKEN = new JwtAuthenticator(new byte[32], Clock.systemUTC()).token();

    private static byte[] head(String method, String path, String token, long contentLength) {
        return (method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n")
                .getBytes(US_ASCII);
    }

    /**
     * A client that sends a body of {@code --max-request-bytes} (16 MiB, more than the socket buffers take) with a
     * wrong token, all of it before it reads: it gets the whole 401 (status line, reason), then the end of the stream,
     * not a reset.
     */
    @Test
    void aRefusedRequestsReplyIsDeliveredWhileItsBodyIsStillSent() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA);
                HttpConnection connection = HttpConnection.open(server.port())) {
            int length = 16 << 20;
            connection.send(head("POST", "/", WRONG_TOKEN, length));
            OutputStream out = connection.socket().getOutputStream();
            byte[] piece = "0".repeat(64 * 1024).getBytes(US_ASCII);
            for (int sent = 0; sent < length; sent += piece.length) {
                out.write(piece);
            }
            out.flush();
            HttpConnection.Head head = connection.readHead();
            assertTrue(head.text().startsWith("HTTP/1.1 401 Unauthorized\r\n"), head.text());
            assertTrue(head.text().contains("connection: close\r\n"), head.text());
            assertEquals(
                    "wrong signature: the token is not signed with this server's secret\n",
                    new String(connection.readBody(head), US_ASCII));
            assertTrue(connection.closedByServerWithin(Duration.ofSeconds(3)));
        }
    }

    /** 404, 405 and 400 close the connection once answered, as 401 does: no keep-alive for a refused request. */
    @Test
    void everyRefusalClosesItsConnection() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<byte[]> refused = List.of(
                    head("POST", "/x", server.token(), 0),
                    head("PUT", "/", server.token(), 0),
                    "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n".getBytes(US_ASCII));
            int[] statuses = {404, 405, 400};
            for (int i = 0; i < statuses.length; i++) {
                try (HttpConnection connection = HttpConnection.open(server.port())) {
                    connection.send(refused.get(i));
                    connection.send(HttpConnection.post(server.token(), CALL));
                    HttpConnection.Head head = connection.readHead();
                    assertEquals(statuses[i], head.status(), head.text());
                    assertTrue(head.text().contains("connection: close\r\n"), head.text());
                    connection.readBody(head);
                    assertTrue(
                            connection.closedByServerWithin(Duration.ofSeconds(3)),
                            statuses[i] + ": closed, the request after it unanswered");
                }
            }
        }
    }

    /** A refused client that reads its 401 and goes frees its place at once, not a linger later. */
    @Test
    void aRefusedConnectionHoldsNoPlaceOnceItsPeerHasGone() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "2")) {
            for (int i = 0; i < 20; i++) {
                try (HttpConnection connection = HttpConnection.open(server.port())) {
                    connection.send(HttpConnection.post(WRONG_TOKEN, CALL));
                    HttpConnection.Head head = connection.readHead();
                    assertEquals(401, head.status());
                    connection.readBody(head);
                }
                assertEquals(
                        0,
                        ServerSockets.awaitAtMost(server.port(), 0, Duration.ofMillis(300)),
                        "request " + i + ": the server has closed its side");
            }
        }
    }

    /**
     * With every place taken, a new connection takes the place of one that has not passed the JWT: a refused one first
     * (it lingers after its 401), then the oldest idle one; connections that have passed the JWT keep theirs, and when
     * all have, a new connection is refused at accept.
     */
    @Test
    void connectionsWithoutTheJwtGiveTheirPlaceToNewOnes() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "3");
                HttpConnection proven = HttpConnection.open(server.port());
                HttpConnection idle = HttpConnection.open(server.port());
                HttpConnection refused = HttpConnection.open(server.port())) {
            exchange(server, proven);
            refused.send(HttpConnection.post(WRONG_TOKEN, CALL));
            assertEquals(401, refused.readHead().status());
            refused.discard(Long.MAX_VALUE); // to the end of the stream: the server lingers, its output shut
            try (HttpConnection first = HttpConnection.open(server.port())) {
                exchange(server, first);
                assertFalse(idle.closedByServerWithin(Duration.ofMillis(200)), "the refused one went first");
                try (HttpConnection second = HttpConnection.open(server.port())) {
                    exchange(server, second);
                    assertTrue(idle.closedByServerWithin(Duration.ofSeconds(2)), "then the idle one");
                    try (HttpConnection third = HttpConnection.open(server.port())) {
                        assertTrue(third.closedByServerWithin(Duration.ofSeconds(2)), "all three have the JWT");
                    }
                    exchange(server, proven);
                    exchange(server, first);
                    exchange(server, second);
                }
            }
        }
    }

    private static void exchange(EngineServerFixture server, HttpConnection connection) throws Exception {
        connection.send(HttpConnection.post(server.token(), CALL));
        HttpConnection.Head head = connection.readHead();
        assertEquals(200, head.status());
        assertEquals(CAPABILITIES, new String(connection.readBody(head), US_ASCII));
    }
}
