package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.H2cConnection;
import io.hexstream.server.testing.HttpConnection;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code --max-connections} and HTTP/2: the connection is not authenticated, its streams are (execution-apis #793), so
 * an h2c connection counts as proven once one of its streams has passed the JWT, and keeps its place; one whose streams
 * have not (or that opened none) gives its place to a new connection as an unproven HTTP/1.1 connection does.
 */
class Http2ConnectionLimitTest {
    private static final String CALL = request(1, "engine_exchangeCapabilities", "[[]]");

    @Test
    void aStreamThatPassedTheJwtProvesItsConnection() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "3")) {
            // the fixture's own client keeps its (proven) HTTP/1.1 connection: one place of the three
            String expected = new String(server.post(CALL).body(), StandardCharsets.US_ASCII);
            H2cConnection proven = H2cConnection.open(server.port());
            H2cConnection unproven = H2cConnection.open(server.port());
            try {
                assertEquals(
                        expected,
                        proven.postJson(server.token(), CALL).response().text());
                assertEquals(
                        401, unproven.postJson("not.a.token", CALL).response().status());
                try (HttpConnection next = HttpConnection.open(server.port())) {
                    next.send(HttpConnection.post(server.token(), CALL));
                    HttpConnection.Head head = next.readHead();
                    assertEquals(200, head.status(), "a place was given up for it");
                    assertEquals(expected, new String(next.readBody(head), StandardCharsets.US_ASCII));
                }
                assertTrue(unproven.closed().await(5, TimeUnit.SECONDS), "the unproven h2c connection gave its place");
                assertFalse(proven.closed().isDone(), "the proven one kept its place");
                assertEquals(
                        expected,
                        proven.postJson(server.token(), CALL).response().text());
            } finally {
                proven.close();
                unproven.close();
            }
        }
    }

    @Test
    void aConnectionThatOpensNoStreamIsUnproven() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--max-connections", "1")) {
            H2cConnection silent = H2cConnection.open(server.port());
            try (HttpConnection next = HttpConnection.open(server.port())) {
                next.send(HttpConnection.post(server.token(), CALL));
                assertEquals(200, next.readHead().status(), "the silent h2c connection's place, after its grace");
                assertTrue(silent.closed().await(5, TimeUnit.SECONDS));
            } finally {
                silent.close();
            }
        }
    }
}
