package io.hexstream.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerProcess;
import io.hexstream.server.testing.ServerProcess.Run;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operating the server, each run in a JVM of its own: every start-up failure is one line on stderr and a non-zero exit;
 * SIGTERM (Ctrl-C) stops it with exit 0 and nothing on stderr, letting the response in flight finish;
 * {@code --version}, {@code token}'s default secret, the files of a first start, and the data dir's lock.
 */
class StartupTest {
    private static final String TRY_HELP = "Try 'hexstream-example-server --help' for more information.\n";
    private static final String CAPABILITIES_REPLY =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"engine_getBlobsV2\",\"engine_getBlobsV3\""
                    + ",\"engine_getBlobsV4\"]}";

    @Test
    void aFirstStartWritesAnOwnerOnlySecretAndAnEmptyHashesFileThatTokenUsesAndSigtermStopsItSilently(@TempDir Path dir)
            throws Exception {
        Path data = dir.resolve("data");
        int port = ServerProcess.freePort();
        try (ServerProcess server = ServerProcess.serve(
                dir,
                "server",
                port,
                data.resolve("jwt.hex"),
                "--port",
                Integer.toString(port),
                "--data-dir",
                data.toString(),
                "--generate",
                "0")) {
            assertEquals(
                    PosixFilePermissions.fromString("rw-------"),
                    Files.getPosixFilePermissions(data.resolve("jwt.hex")));
            assertEquals("", Files.readString(data.resolve("hashes.txt")));

            Run token = ServerProcess.run(dir, "token", "token", "--data-dir", data.toString());
            assertEquals(0, token.exitCode(), token.stderr());
            assertEquals("", token.stderr());
            assertTrue(token.stdout().matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\n"), token.stdout());
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                    .header("Authorization", "Bearer " + token.stdout().strip())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            EngineClient.request(1, "engine_exchangeCapabilities", "[[]]")))
                    .build();
            var response = server.client().send(request);
            assertEquals(200, response.statusCode());
            assertEquals(CAPABILITIES_REPLY, new String(response.body(), US_ASCII));

            assertEquals(0, server.stop());
            assertEquals("", server.stderr());
            assertFalse(server.log().contains("LEAK"), server.log());
        }
    }

    @Test
    void aDataDirInUseAndAPortInUseAreRefusedBeforeAnyBlobIsGenerated(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        int port = ServerProcess.freePort();
        try (ServerProcess server = ServerProcess.serve(
                dir,
                "server",
                port,
                data.resolve("jwt.hex"),
                "--port",
                Integer.toString(port),
                "--data-dir",
                data.toString(),
                "--generate",
                "0")) {
            Run sameDataDir = ServerProcess.run(
                    dir,
                    "same-data-dir",
                    "--port",
                    Integer.toString(ServerProcess.freePort()),
                    "--data-dir",
                    data.toString());
            assertEquals(
                    new Run(1, "", "--data-dir " + data + ": in use by another server (pid " + server.pid() + ")\n"),
                    sameDataDir);

            Path other = dir.resolve("other");
            Run samePort = ServerProcess.run(
                    dir,
                    "same-port",
                    "--port",
                    Integer.toString(port),
                    "--data-dir",
                    other.toString(),
                    "--generate",
                    "2");
            assertEquals(1, samePort.exitCode());
            assertEquals("port " + port + " on 127.0.0.1 is in use\n", samePort.stderr());
            assertEquals(List.of(DataDirLock.FILE), files(other), "no jwt.hex, blobs/ or hashes.txt: the lock only");
        }
    }

    @Test
    void sigtermMidResponseLetsItFinishClosesAStalledOneAndExitsZeroSilently(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        List<VersionedHash> hashes = EngineServerFixture.copySharedPool(data);
        int port = ServerProcess.freePort();
        Path secret = Files.writeString(dir.resolve("jwt.hex"), EngineServerFixture.SECRET);
        try (ServerProcess server = ServerProcess.serve(
                        dir,
                        "server",
                        port,
                        secret,
                        "--port",
                        Integer.toString(port),
                        "--data-dir",
                        data.toString(),
                        "--jwt-secret",
                        secret.toString(),
                        "--generate",
                        "0");
                HttpConnection reading = HttpConnection.open(port);
                HttpConnection stalled = HttpConnection.open(port)) {
            String getBlobs = EngineClient.request(
                    1, "engine_getBlobsV2", EngineClient.hashParams(Collections.nCopies(128, hashes.get(0))));
            reading.send(HttpConnection.post(server.client().token(), getBlobs));
            stalled.send(HttpConnection.post(server.client().token(), getBlobs));
            HttpConnection.Head head = reading.readHead();
            assertEquals(200, head.status());
            assertEquals(1 << 20, reading.discard(1 << 20));
            stalled.readHead();

            long signalled = System.nanoTime();
            ExecutorService stopping = Executors.newSingleThreadExecutor();
            Future<Integer> exitCode;
            try {
                exitCode = stopping.submit(server::stop);
                assertEquals(
                        head.contentLength() - (1 << 20),
                        reading.discard(head.contentLength()),
                        "the rest of the response");
                exitCode.get();
            } finally {
                stopping.shutdown();
            }
            long stoppedMs = (System.nanoTime() - signalled) / 1_000_000;

            assertTrue(stalled.discard(Long.MAX_VALUE) < 17_563_648L, "the stalled response is cut off");
            assertEquals(0, exitCode.get());
            assertEquals("", server.stderr());
            assertFalse(server.log().contains("LEAK"), server.log());
            assertTrue(stoppedMs >= 2_000, stoppedMs + " ms: 2 s for the stalled response, then exit");
        }
    }

    @Test
    void aMissingSecretIsOneLineOnStderr(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("x").resolve("jwt.hex");
        assertEquals(
                new Run(1, "", "--jwt-secret " + secret + ": no such file\n"),
                ServerProcess.run(
                        dir,
                        "run",
                        "--jwt-secret",
                        secret.toString(),
                        "--data-dir",
                        dir.resolve("data").toString()));
    }

    @Test
    void aShortSecretIsOneLineOnStderr(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("jwt.hex"), "0x" + "a".repeat(63) + "\n");
        assertEquals(
                new Run(
                        1,
                        "",
                        "--jwt-secret " + secret
                                + ": is not 32 hex-encoded bytes (64 hex digits, 0x optional): got 63 digits\n"),
                ServerProcess.run(
                        dir,
                        "run",
                        "--jwt-secret",
                        secret.toString(),
                        "--data-dir",
                        dir.resolve("data").toString()));
    }

    @Test
    void debugAlsoLogsTheStackTrace(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("jwt.hex");
        Run run = ServerProcess.run(
                dir,
                "run",
                "--log-level",
                "debug",
                "--jwt-secret",
                secret.toString(),
                "--data-dir",
                dir.resolve("data").toString());
        assertEquals(1, run.exitCode());
        assertEquals("--jwt-secret " + secret + ": no such file\n", run.stderr());
        assertTrue(
                run.stdout().contains("start-up failed") && run.stdout().contains("java.nio.file.NoSuchFileException"),
                run.stdout());
    }

    @Test
    void anUnwritableDataDirIsOneLineOnStderr(@TempDir Path dir) throws Exception {
        Path readOnly = Files.createDirectory(
                dir.resolve("read-only"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        // root writes where permissions forbid it; sysfs refuses even root
        Path data = Files.isWritable(readOnly) ? Path.of("/sys/hexstream-data") : readOnly;
        assertEquals(
                new Run(1, "", "--data-dir " + data + ": not writable\n"),
                ServerProcess.run(dir, "run", "--data-dir", data.toString()));
    }

    @Test
    void aHostOfAnotherMachineIsOneLineOnStderr(@TempDir Path dir) throws Exception {
        // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): no machine's own address
        Run run = ServerProcess.run(
                dir,
                "run",
                "--host",
                "203.0.113.1",
                "--data-dir",
                dir.resolve("data").toString(),
                "--generate",
                "0");
        assertEquals(1, run.exitCode());
        assertEquals("--host 203.0.113.1: not an address of this machine\n", run.stderr());
        assertEquals(List.of(DataDirLock.FILE), files(dir.resolve("data")), "no jwt.hex or blobs/: the lock only");
    }

    @Test
    void aServerAndProbeVerifyLeaveNoFileInTheTemporaryDirectory(@TempDir Path dir) throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Path data = dir.resolve("data");
        int port = ServerProcess.freePort();
        try (ServerProcess server = ServerProcess.serveWithTmpdir(
                tmp,
                dir,
                "server",
                port,
                data.resolve("jwt.hex"),
                "--port",
                Integer.toString(port),
                "--data-dir",
                data.toString(),
                "--generate",
                "1")) {
            assertEquals(List.of(), files(tmp), "KZG loaded, its copies gone, while the server runs");
            Run probe = ServerProcess.runWithTmpdir(
                    tmp,
                    dir,
                    "probe",
                    "probe",
                    "--url",
                    "http://127.0.0.1:" + port,
                    "--jwt-secret",
                    data.resolve("jwt.hex").toString(),
                    "--hashes",
                    data.resolve("hashes.txt").toString(),
                    "--verify");
            assertEquals(0, probe.exitCode(), probe.stderr());
            assertEquals("", probe.stderr());
            assertTrue(probe.stdout().startsWith("engine_getBlobsV2 #1: 1/1 blobs, "), probe.stdout());
            assertEquals(0, server.stop());
            assertEquals("", server.stderr());
        }
        // c-kzg's own loaders' names, this server's, and anything else: none
        assertEquals(List.of(), files(tmp));
    }

    @Test
    void theStartUpLogNamesTheIpcSocket(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Path socket = dir.resolve("engine.ipc");
        int port = ServerProcess.freePort();
        try (ServerProcess server = ServerProcess.serve(
                dir,
                "server",
                port,
                data.resolve("jwt.hex"),
                "--port",
                Integer.toString(port),
                "--data-dir",
                data.toString(),
                "--generate",
                "0",
                "--ipc-path",
                socket.toString())) {
            assertTrue(
                    server.log().contains("Engine API without JWT on the Unix domain socket " + socket + "\n"),
                    server.log());
            assertEquals(0, server.stop());
            assertEquals("", server.stderr());
        }
    }

    @Test
    void optionValuesAreCheckedInOneLineThenHelpIsNamed(@TempDir Path dir) throws Exception {
        assertEquals(
                new Run(2, "", "Invalid value for option '--generate': '-1' is negative\n" + TRY_HELP),
                ServerProcess.run(dir, "generate", "--generate", "-1"));
        assertEquals(
                new Run(2, "", "Invalid value for option '--port': '70000' is not a port (0-65535)\n" + TRY_HELP),
                ServerProcess.run(dir, "port", "--port", "70000"));
    }

    @Test
    void anUnknownOptionIsOneLineThenHelpIsNamed(@TempDir Path dir) throws Exception {
        assertEquals(
                new Run(2, "", "Unknown option: '--prot'\n" + TRY_HELP), ServerProcess.run(dir, "unknown", "--prot"));
        assertEquals(
                new Run(
                        2,
                        "",
                        "Unknown option: '--port'\n"
                                + "Try 'hexstream-example-server token --help' for more information.\n"),
                ServerProcess.run(dir, "token-unknown", "token", "--port"));
    }

    @Test
    void tokenWithoutASecretSaysWhereItLooked(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("elsewhere");
        assertEquals(
                new Run(
                        1,
                        "",
                        "no JWT secret at " + data.toAbsolutePath().resolve("jwt.hex")
                                + " (DATA_DIR/jwt.hex, --data-dir " + data
                                + "): the server writes it at its first start;"
                                + " or give --jwt-secret FILE\n"),
                ServerProcess.run(dir, "token", "token", "--data-dir", data.toString()));
        Path secret = dir.resolve("jwt.hex");
        assertEquals(
                new Run(1, "", "--jwt-secret " + secret + ": no such file\n"),
                ServerProcess.run(dir, "token-secret", "token", "--jwt-secret", secret.toString()));
    }

    @Test
    void versionPrintsTheProjectVersion(@TempDir Path dir) throws Exception {
        Run run = ServerProcess.run(dir, "version", "--version");
        assertEquals(0, run.exitCode());
        assertEquals("", run.stderr());
        assertTrue(
                run.stdout().matches("hexstream-example-server [0-9]+\\.[0-9]+\\.[0-9]+(-SNAPSHOT)?\n"), run.stdout());
    }

    private static List<String> files(Path directory) throws java.io.IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }
}
