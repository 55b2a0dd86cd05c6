package io.hexstream.server.cli;

import static io.hexstream.server.cli.ProbeRuns.assertBlobFiles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --url ws://…} and {@code probe --ipc-path} against the example server serving both: the files of
 * {@code --out} compared with the pool's bytes, {@code --verify} passing, each reply's length that of the same reply
 * over HTTP (read by java.net.http), several requests on one connection, a JSON-RPC error and a refused upgrade in one
 * line.
 */
class ProbeMessageTransportsTest {
    private static final VersionedHash UNKNOWN = VersionedHash.wrap(new byte[32]);

    private static Path socket;
    private static EngineServerFixture server;

    @BeforeAll
    static void start() throws IOException {
        socket = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "probe-ipc-")
                .resolve("engine.ipc");
        server = EngineServerFixture.start(Fork.OSAKA, "--ipc-path", socket.toString());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
        Files.delete(socket.getParent());
    }

    @Test
    void webSocketV2WritesThePoolsBytesAndVerifies(@TempDir Path dir) throws Exception {
        Run run = ProbeRuns.probe(webSocketUrl(), dir, server.hashes(), "--verify", "--out", out(dir));
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV2", 6, 6, httpLength("engine_getBlobsV2", server.hashes()));
        assertBlobFiles(server, dir.resolve("out"), server.hashes(), false);
    }

    @Test
    void webSocketV3RepeatsOnOneConnection(@TempDir Path dir) throws Exception {
        List<VersionedHash> asked =
                List.of(server.hashes().get(4), UNKNOWN, server.hashes().get(1));
        Run run = ProbeRuns.probe(
                webSocketUrl(), dir, asked, "--method", "engine_getBlobsV3", "--repeat", "3", "--out", out(dir));
        assertEquals(0, run.exitCode(), run.stderr());
        String[] lines = run.stdout().split("\n");
        assertEquals(5, lines.length, run.stdout());
        for (int r = 0; r < 3; r++) {
            assertTrue(lines[r].startsWith("engine_getBlobsV3 #" + (r + 1) + ": 2/3 blobs, "), lines[r]);
        }
        assertBlobFiles(server, dir.resolve("out"), List.of(asked.get(0), asked.get(2)), false);
    }

    @Test
    void aWrongSecretOnTheUpgradeIsOneLine(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("other.hex"), "0x" + "43".repeat(32));
        Run run = ProbeRuns.run(
                "probe",
                "--url",
                webSocketUrl(),
                "--jwt-secret",
                secret.toString(),
                "--hash",
                server.hashes().get(0).toString());
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV2: HTTP 401 Unauthorized to the WebSocket upgrade: wrong signature: the token"
                                + " is not signed with this server's secret\n"),
                run);
    }

    @Test
    void ipcV2WritesThePoolsBytesAndVerifies(@TempDir Path dir) throws Exception {
        Run run = ipc(dir, server.hashes(), "--verify", "--repeat", "2", "--out", out(dir));
        assertEquals(0, run.exitCode(), run.stderr());
        String[] lines = run.stdout().split("\n");
        assertEquals(4, lines.length, run.stdout());
        long length = httpLength("engine_getBlobsV2", server.hashes());
        ProbeRuns.assertLine(lines[0] + "\n", "engine_getBlobsV2", 6, 6, length);
        ProbeRuns.assertLine(lines[1].replace("#2", "#1") + "\n", "engine_getBlobsV2", 6, 6, length);
        assertBlobFiles(server, dir.resolve("out"), server.hashes(), false);
    }

    @Test
    void ipcJsonRpcErrorIsOneLineAndLeavesNoFile(@TempDir Path dir) throws Exception {
        Run run = ipc(dir, server.hashes(), "--method", "engine_getBlobsV1", "--out", out(dir));
        assertEquals(new Run(1, "", "engine_getBlobsV1: -38005 Unsupported fork: serving osaka\n"), run);
        assertEquals(List.of(), ProbeRuns.files(dir.resolve("out")));
    }

    @Test
    void sszIsOverHttpOnly(@TempDir Path dir) throws Exception {
        Run run = ProbeRuns.probe(webSocketUrl(), dir, server.hashes(), "--transport", "ssz");
        assertEquals(2, run.exitCode());
        assertTrue(
                run.stderr()
                        .startsWith(
                                "--transport ssz is over HTTP: not with a ws:// URL, nor --ipc-path without --http2\n"),
                run.stderr());
    }

    // ---------------------------------------------------------------- helpers

    private static String webSocketUrl() {
        return "ws://127.0.0.1:" + server.port() + "/";
    }

    private static String out(Path dir) {
        return dir.resolve("out").toString();
    }

    private static Run ipc(Path dir, List<VersionedHash> hashes, String... options) throws IOException {
        return ProbeRuns.run(ProbeRuns.concat(
                new String[] {"probe", "--ipc-path", socket.toString(), "--hashes", ProbeRuns.hashes(dir, hashes)},
                options));
    }

    /** The length of the body the server sends over HTTP for the call with id 1 (java.net.http). */
    private static long httpLength(String method, List<VersionedHash> hashes) {
        return server.post(EngineClient.request(1, method, EngineClient.hashParams(hashes)))
                .body()
                .length;
    }
}
