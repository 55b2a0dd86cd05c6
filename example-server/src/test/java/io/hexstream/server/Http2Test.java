package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Assume;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.SszBlobs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * h2c on the Engine API's port and the IPC socket (execution-apis #793, "Transport & framing"), driven by clients we
 * did not write: the JDK's {@code HttpClient} (HTTP/1.1's {@code Upgrade: h2c}, then streams on the upgraded
 * connection) and curl with {@code --http2-prior-knowledge} (skipped with one line where curl lacks HTTP/2). Every
 * reply is compared byte for byte with the HTTP/1.1 reply to the same request.
 */
class Http2Test {
    private static final String JSON = "application/json";
    private static Path socket;
    private static EngineServerFixture osaka;
    private static EngineServerFixture prague;

    @BeforeAll
    static void start() throws Exception {
        socket = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "ipc-")
                .resolve("engine.ipc");
        osaka = EngineServerFixture.start(Fork.OSAKA, "--ipc-path", socket.toString());
        prague = EngineServerFixture.start(Fork.PRAGUE);
        SszGetBlobsTest.awaitExtensionCells(osaka);
    }

    @AfterAll
    static void stop() throws IOException {
        osaka.close();
        prague.close();
        Files.deleteIfExists(socket.resolveSibling("request.json"));
        Files.deleteIfExists(socket.resolveSibling("reply"));
        Files.deleteIfExists(socket.getParent());
    }

    @Test
    void theJdkClientUpgradesAndGetsGetBlobsV2Of128BlobsAsOverHttp11() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(osaka.cycledHashes(128)));
        HttpResponse<byte[]> http11 = osaka.post(json);
        HttpResponse<byte[]> h2 = http2(osaka, "/", JSON, json.getBytes(StandardCharsets.UTF_8), osaka.token());
        assertEquals(HttpClient.Version.HTTP_2, h2.version());
        assertEquals(200, h2.statusCode());
        assertEquals(http11.headers().firstValue("content-type"), h2.headers().firstValue("content-type"));
        assertEquals(http11.headers().firstValue("content-length"), h2.headers().firstValue("content-length"));
        assertArrayEquals(http11.body(), h2.body());
    }

    @Test
    void everyBlobsRouteIsTheSameOverH2c() throws Exception {
        List<VersionedHash> hashes = osaka.cycledHashes(128);
        for (String path : List.of("/engine/v1/blobs/v2", "/engine/v1/blobs/v3")) {
            assertSameOverH2c(osaka, path, SszBlobs.request(hashes));
        }
        assertSameOverH2c(osaka, "/engine/v1/blobs/v4", SszBlobs.requestV4(hashes, 0, 1, 64, 127));
        assertSameOverH2c(prague, "/engine/v1/blobs/v1", SszBlobs.request(prague.cycledHashes(6)));
    }

    @Test
    void aStreamWithABadJwtIsRefusedAndTheConnectionGoesOn() throws Exception {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String json = request(1, "engine_getBlobsV2", hashParams(osaka.hashes()));
        byte[] expected = osaka.post(json).body();
        HttpResponse<byte[]> first =
                send(client, osaka, "/", JSON, json.getBytes(StandardCharsets.UTF_8), osaka.token());
        HttpResponse<byte[]> refused =
                send(client, osaka, "/", JSON, json.getBytes(StandardCharsets.UTF_8), "not.a.token");
        HttpResponse<byte[]> after =
                send(client, osaka, "/", JSON, json.getBytes(StandardCharsets.UTF_8), osaka.token());
        assertEquals(HttpClient.Version.HTTP_2, refused.version());
        assertEquals(401, refused.statusCode());
        HttpResponse<byte[]> refusedOverHttp11 = send(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(),
                osaka,
                "/",
                JSON,
                json.getBytes(StandardCharsets.UTF_8),
                "not.a.token");
        assertEquals(401, refusedOverHttp11.statusCode());
        assertEquals(
                new String(refusedOverHttp11.body(), StandardCharsets.UTF_8),
                new String(refused.body(), StandardCharsets.UTF_8));
        assertArrayEquals(expected, first.body());
        assertArrayEquals(expected, after.body());
        assertEquals(HttpClient.Version.HTTP_2, after.version());
    }

    @Test
    void eightConcurrentStreamsOnOneConnection() throws Exception {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String json = request(7, "engine_getBlobsV2", hashParams(osaka.cycledHashes(128)));
        byte[] expected = osaka.post(json).body();
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        send(client, osaka, "/", JSON, body, osaka.token()); // the upgrade: the streams below share its connection
        List<CompletableFuture<HttpResponse<byte[]>>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            calls.add(client.sendAsync(
                    post(osaka, "/", JSON, body, osaka.token()), HttpResponse.BodyHandlers.ofByteArray()));
        }
        for (CompletableFuture<HttpResponse<byte[]>> call : calls) {
            HttpResponse<byte[]> response = call.get(60, TimeUnit.SECONDS);
            assertEquals(HttpClient.Version.HTTP_2, response.version());
            assertArrayEquals(expected, response.body());
        }
    }

    @Test
    void curlWithPriorKnowledgeOnThePortAndTheIpcSocket() throws Exception {
        Assume.that(curlHasHttp2(), "curl with HTTP/2 (nghttp2) not found: install Debian's curl");
        String json = request(1, "engine_getBlobsV2", hashParams(osaka.cycledHashes(128)));
        byte[] expected = osaka.post(json).body();
        Path body = Files.writeString(socket.resolveSibling("request.json"), json);
        Path out = socket.resolveSibling("reply");
        String port = "http://127.0.0.1:" + osaka.port() + "/";
        String bearer = "Authorization: Bearer " + osaka.token();
        assertEquals("2 200", curlPost(body, out, "--http2-prior-knowledge", "-H", bearer, port));
        assertArrayEquals(expected, Files.readAllBytes(out));
        String ipc = socket.toString();
        assertEquals(
                "2 200", curlPost(body, out, "--http2-prior-knowledge", "--unix-socket", ipc, "http://localhost/"));
        assertArrayEquals(expected, Files.readAllBytes(out));
        assertEquals("1.1 200", curlPost(body, out, "--http1.1", "--unix-socket", ipc, "http://localhost/"));
        assertArrayEquals(expected, Files.readAllBytes(out));
    }

    /** curl's {@code http_version http_code} for a JSON POST of {@code body}, the reply to {@code out}. */
    private static String curlPost(Path body, Path out, String... arguments) throws Exception {
        List<String> all = new ArrayList<>(
                List.of("-H", "Content-Type: application/json", "--data-binary", "@" + body, "-o", out.toString()));
        all.addAll(List.of(arguments));
        return curl(all.toArray(String[]::new));
    }

    private static void assertSameOverH2c(EngineServerFixture server, String path, byte[] request) throws Exception {
        HttpResponse<byte[]> http11 = SszBlobs.post(server, path, request);
        HttpResponse<byte[]> h2 = http2(server, path, "application/octet-stream", request, server.token());
        assertEquals(200, http11.statusCode(), path);
        assertEquals(HttpClient.Version.HTTP_2, h2.version(), path);
        assertEquals(http11.statusCode(), h2.statusCode(), path);
        assertEquals(http11.headers().firstValue("content-type"), h2.headers().firstValue("content-type"), path);
        assertArrayEquals(http11.body(), h2.body(), path);
    }

    /** One request on a new JDK client that prefers HTTP/2: its first request upgrades with {@code Upgrade: h2c}. */
    private static HttpResponse<byte[]> http2(
            EngineServerFixture server, String path, String type, byte[] body, String token) throws Exception {
        return send(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build(), server, path, type, body, token);
    }

    private static HttpResponse<byte[]> send(
            HttpClient client, EngineServerFixture server, String path, String type, byte[] body, String token)
            throws Exception {
        return client.send(post(server, path, type, body, token), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpRequest post(EngineServerFixture server, String path, String type, byte[] body, String token) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("Content-Type", type)
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    private static boolean curlHasHttp2() {
        try {
            Process version =
                    new ProcessBuilder("curl", "-V").redirectErrorStream(true).start();
            String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return version.waitFor() == 0 && text.contains("HTTP2");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** curl's {@code http_version http_code} for {@code arguments}. */
    private static String curl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-w", "%{http_version} %{http_code}"));
        command.addAll(List.of(arguments));
        Process curl = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String written = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, curl.waitFor(), "curl's exit code");
        return written;
    }
}
