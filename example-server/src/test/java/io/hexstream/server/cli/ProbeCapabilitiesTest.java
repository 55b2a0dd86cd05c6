package io.hexstream.server.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --capabilities}: the document found at {@code /engine/v1/capabilities} on the example server, and at
 * {@code /engine/v2/capabilities} (where releases before nethermind#13023 and reth#24906 serve it) on a server of the
 * JDK's that serves only that one, each request with a JWT the server's own authenticator accepts; neither is one line
 * and exit 1.
 */
class ProbeCapabilitiesTest {
    private static final VersionedHash HASH = VersionedHash.decode("0x01" + "ee".repeat(31));
    /** The capabilities, then one getBlobsV2 call over the SSZ routes. */
    private static final String[] SSZ_CALL = {"--capabilities", "--transport", "ssz", "--method", "engine_getBlobsV2"};
    /** What a pre-move server lists: refactor.md, "Capabilities format", cut to one fork and one revision. */
    private static final String V2_DOCUMENT = "{\"supported_forks\":[\"osaka\"],\"fork_scoped_endpoints\":[],"
            + "\"independently_versioned\":{\"blobs\":[\"v2\"]},"
            + "\"unscoped_endpoints\":[\"capabilities\",\"identity\"]}";

    @Test
    void theExampleServerServesItAtV1(@TempDir Path dir) throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            Run run = ProbeRuns.probe(server, dir, List.of(HASH), SSZ_CALL);
            assertCapabilitiesThenTheCall(
                    run, "capabilities at /engine/v1/capabilities: forks osaka; blobs v2, v3, v4\n");
        }
    }

    @Test
    void anOlderReleaseServesItAtV2(@TempDir Path dir) throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        List<String> refused = new CopyOnWriteArrayList<>();
        HttpServer server = server(asked, refused, true);
        try {
            Run run =
                    ProbeRuns.probe("http://127.0.0.1:" + server.getAddress().getPort(), dir, List.of(HASH), SSZ_CALL);
            assertCapabilitiesThenTheCall(
                    run,
                    "capabilities at /engine/v2/capabilities (404 at /engine/v1/capabilities):"
                            + " forks osaka; blobs v2\n");
            assertEquals(
                    List.of("GET /engine/v1/capabilities", "GET /engine/v2/capabilities", "POST /engine/v1/blobs/v2"),
                    asked);
            assertEquals(List.of(), refused, "every request carried a JWT of the secret");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void neitherIsOneLineAndExit1(@TempDir Path dir) throws Exception {
        List<String> asked = new CopyOnWriteArrayList<>();
        HttpServer server = server(asked, new CopyOnWriteArrayList<>(), false);
        try {
            Run run = ProbeRuns.probe(
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/",
                    dir,
                    List.of(HASH),
                    "--capabilities",
                    "--transport",
                    "ssz");
            assertEquals(
                    new Run(
                            1,
                            "",
                            "capabilities: HTTP 404 at /engine/v1/capabilities and at /engine/v2/capabilities\n"),
                    run);
            assertEquals(List.of("GET /engine/v1/capabilities", "GET /engine/v2/capabilities"), asked);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void itIsOverHttpOnly(@TempDir Path dir) throws Exception {
        Run run = ProbeRuns.probe("ws://127.0.0.1:1", dir, List.of(HASH), "--capabilities");
        assertEquals(2, run.exitCode());
        assertTrue(
                run.stderr().startsWith("--capabilities is over HTTP: not with a ws:// URL or --ipc-path\n"),
                run.stderr());
    }

    /**
     * A server of the JDK's on a loopback port: {@code /engine/v2/capabilities} (if {@code v2}) answers
     * {@link #V2_DOCUMENT}, {@code POST /engine/v1/blobs/v2} {@code 204} (none of the hashes), any other path
     * {@code 404} with the problem {@code method-not-found}. Records each request, and each without a JWT the example
     * server's authenticator accepts.
     */
    /** A run that printed {@code first} (the capabilities line), then the call's line: none of the blobs is known. */
    private static void assertCapabilitiesThenTheCall(Run run, String first) {
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        assertTrue(run.stdout().startsWith(first), run.stdout());
        ProbeRuns.assertLine(run.stdout().substring(first.length()), "engine_getBlobsV2", 0, 1, 0);
    }

    private static HttpServer server(List<String> asked, List<String> refused, boolean v2) throws IOException {
        JwtAuthenticator jwt =
                new JwtAuthenticator(HexDecoder.decode(EngineServerFixture.SECRET, 32), Clock.systemUTC());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String request =
                    exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            asked.add(request);
            if (jwt.refusal(exchange.getRequestHeaders().getFirst("Authorization")) != null) {
                refused.add(request);
            }
            exchange.getRequestBody().readAllBytes();
            if (v2 && request.equals("GET /engine/v2/capabilities")) {
                answer(exchange, 200, "application/json", V2_DOCUMENT);
            } else if (request.equals("POST /engine/v1/blobs/v2")) {
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            } else {
                answer(exchange, 404, "application/problem+json", "{\"type\":\"/engine-api/errors/method-not-found\"}");
            }
        });
        server.start();
        return server;
    }

    private static void answer(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
