package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests judged on their head, before any body byte is read: a bad token gets 401 with the reason while its 16 MiB
 * body is still unsent, {@code Expect: 100-continue} is answered only after the check, and paths other than {@code /}
 * get 404, their connection closed after it as after every refusal.
 */
class RequestHeadTest {
    private static final String CAPABILITIES =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"engine_getBlobsV2\",\"engine_getBlobsV3\""
                    + ",\"engine_getBlobsV4\"]}";
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

    private static byte[] head(String path, String token, long contentLength, String extra) {
        return ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + contentLength + "\r\n" + extra
                        + "\r\n")
                .getBytes(US_ASCII);
    }

    @Test
    void aBadTokenIsRefusedWhileItsBodyIsUnsent() throws Exception {
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            // Not one body byte is sent: the answer can only come from the head.
            connection.send(head("/", "not.a.jwt", 16 << 20, ""));
            HttpConnection.Head head = connection.readHead();
            String reason = new String(connection.readBody(head), US_ASCII);
            assertEquals(401, head.status());
            assertTrue(head.text().contains("connection: close\r\n"), head.text());
            assertEquals(
                    "malformed token: the header has non-zero bits after its last byte, not canonical base64url"
                            + " (RFC 7515, section 2)\n",
                    reason);
            assertTrue(
                    connection.closedByServerWithin(Duration.ofSeconds(2)),
                    "and the connection is closed, body unread");
        }
    }

    @Test
    void continueIsAnsweredOnlyAfterTheCheck() throws Exception {
        try (HttpConnection refused = HttpConnection.open(server.port())) {
            refused.send(head("/", "not.a.jwt", CALL.length(), "Expect: 100-continue\r\n"));
            HttpConnection.Head head = refused.readHead();
            assertEquals(401, head.status(), "no 100 Continue for a request refused on its head");
            refused.readBody(head);
            assertTrue(refused.closedByServerWithin(Duration.ofSeconds(2)));
        }
        try (HttpConnection accepted = HttpConnection.open(server.port())) {
            accepted.send(head("/", server.token(), CALL.length(), "Expect: 100-continue\r\n"));
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(accepted.readExactly(25), US_ASCII));
            accepted.send(CALL.getBytes(US_ASCII));
            HttpConnection.Head head = accepted.readHead();
            assertEquals(200, head.status());
            assertEquals(CAPABILITIES, new String(accepted.readBody(head), US_ASCII));
        }
    }

    private static final String METHOD_NOT_FOUND = "{\"type\":\"/engine-api/errors/method-not-found\",\"detail\":"
            + "\"no endpoint at this URL; GET /engine/v1/capabilities lists those served\"}";

    @Test
    void otherPathsGetNotFoundAndTheirConnectionIsClosed() throws Exception {
        for (String path : new String[] {"/engine/v1/blobs/v5", "/x", "//"}) {
            try (HttpConnection connection = HttpConnection.open(server.port())) {
                byte[] body = "{\"blob\":1}".getBytes(US_ASCII);
                connection.send(head(path, server.token(), body.length, ""));
                connection.send(body);
                HttpConnection.Head head = connection.readHead();
                assertEquals(404, head.status(), path);
                // under /engine/ the REST routes' problem (SszGetBlobsTest reads it), elsewhere an empty body
                assertEquals(path.startsWith("/engine/") ? METHOD_NOT_FOUND.length() : 0, head.contentLength(), path);
                assertTrue(head.text().contains("connection: close\r\n"), head.text());
                assertTrue(connection.closedByServerWithin(Duration.ofSeconds(2)), path);
            }
        }
        try (HttpConnection connection = HttpConnection.open(server.port())) {
            connection.send(HttpConnection.post(server.token(), CALL));
            HttpConnection.Head head = connection.readHead();
            assertEquals(200, head.status());
            assertEquals(CAPABILITIES, new String(connection.readBody(head), US_ASCII));
        }
    }
}
