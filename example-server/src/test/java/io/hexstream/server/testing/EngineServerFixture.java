package io.hexstream.server.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.http.StreamingRenderer;
import io.hexstream.server.pool.VersionedHash;
import io.hexstream.server.rpc.Fork;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * An example server on a free loopback port, over a pool of {@link #GENERATED} real-KZG blobs that
 * are generated once into {@code target/test-blobs} and reused by every test class and run (the
 * server's own store does the caching). Close it to stop the server.
 */
public final class EngineServerFixture implements AutoCloseable {
    public static final int GENERATED = 6;
    public static final String SECRET = "0x" + "42".repeat(32);
    private static final Path SHARED_DATA = Path.of("target", "test-blobs");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ExampleServer server;
    private final HttpClient client = HttpClient.newHttpClient();
    private final JwtAuthenticator tokens;
    private final URI uri;

    private EngineServerFixture(ExampleServer server, Clock clock) {
        this.server = server;
        this.tokens = new JwtAuthenticator(server.secret().bytes(), clock);
        this.uri = URI.create("http://127.0.0.1:" + server.address().getPort() + "/");
    }

    public static EngineServerFixture start(Fork fork) {
        return start(fork, Clock.systemUTC(), SHARED_DATA, 1024);
    }

    /** A server over {@code dataDir} (topped up to {@link #GENERATED} blobs), answering with {@code clock}'s time. */
    public static EngineServerFixture start(Fork fork, Clock clock, Path dataDir, int poolMaxBlobs) {
        try {
            Files.createDirectories(dataDir);
            Path scratch = Files.createTempDirectory("hexstream-test");
            Path secret = Files.writeString(scratch.resolve("jwt.hex"), SECRET);
            ExampleServer server = ExampleServer.start(new ExampleServer.Config("127.0.0.1", 0, secret, false,
                    dataDir, GENERATED, scratch.resolve("hashes.txt"), fork, 128, 1 << 20, poolMaxBlobs),
                    new StreamingRenderer(), clock);
            return new EngineServerFixture(server, clock);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public ExampleServer server() {
        return server;
    }

    public URI uri() {
        return uri;
    }

    public List<VersionedHash> hashes() {
        return server.pool().hashes();
    }

    /** {@code n} versioned hashes cycling through the pool's: how tests ask for 128 blobs from a few. */
    public List<VersionedHash> cycledHashes(int n) {
        List<VersionedHash> hashes = hashes();
        List<VersionedHash> cycled = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cycled.add(hashes.get(i % hashes.size()));
        }
        return cycled;
    }

    /** A valid token for now. */
    public String token() {
        return tokens.token();
    }

    /** POSTs {@code json} with a valid token. */
    public HttpResponse<byte[]> post(String json) {
        return send(HttpRequest.newBuilder(uri).header("Authorization", "Bearer " + token())
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** POSTs {@code json} with a valid token and parses the JSON reply. */
    public JsonNode call(String json) {
        HttpResponse<byte[]> response = post(json);
        if (response.statusCode() != 200) {
            throw new AssertionError("HTTP " + response.statusCode());
        }
        try {
            return MAPPER.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public HttpResponse<byte[]> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A JSON-RPC request text. */
    public static String request(Object id, String method, String paramsJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}";
    }

    /** {@code [["0x…", …]]} for the given hashes. */
    public static String hashParams(List<?> hashes) {
        StringBuilder json = new StringBuilder("[[");
        for (int i = 0; i < hashes.size(); i++) {
            json.append(i == 0 ? "" : ",").append('"').append(hashes.get(i)).append('"');
        }
        return json.append("]]").toString();
    }

    @Override
    public void close() {
        server.close();
    }
}
