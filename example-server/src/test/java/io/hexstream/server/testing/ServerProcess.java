package io.hexstream.server.testing;

import io.hexstream.codec.Hex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The example server ({@code io.hexstream.server.Main}) in a JVM of its own, on this test's class path,
 * over a data dir with no generated blobs, logging to a file: what a crash test needs to kill with
 * SIGKILL. Close it to kill it if it still runs.
 */
public final class ServerProcess implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 60_000;

    private final Process process;
    private final Path log;
    private final EngineClient client;

    private ServerProcess(Process process, Path log, EngineClient client) {
        this.process = process;
        this.log = log;
        this.client = client;
    }

    /**
     * Starts {@code --fork osaka} over {@code dataDir} with the JWT secret {@link EngineServerFixture#SECRET}
     * and returns once it listens.
     *
     * @param log where its stdout and stderr go (replaced)
     */
    public static ServerProcess start(Path dataDir, Path log) throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        Path secret = Files.writeString(dataDir.resolve("test-jwt.hex"), EngineServerFixture.SECRET);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Dio.netty.leakDetection.level=paranoid", "-cp", System.getProperty("java.class.path"),
                "io.hexstream.server.Main", "--port", Integer.toString(port), "--data-dir", dataDir.toString(),
                "--jwt-secret", secret.toString(), "--generate", "0", "--fork", "osaka"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcess server = new ServerProcess(process, log,
                EngineClient.authenticated(port, Hex.decode(EngineServerFixture.SECRET)));
        try {
            server.awaitListening(port);
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitListening(int port) throws IOException, InterruptedException {
        String listening = "Engine API (osaka) on http://127.0.0.1:" + port;
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (!log().contains(listening)) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                throw new AssertionError("the server did not start; its log:\n" + log());
            }
            Thread.sleep(50);
        }
    }

    public EngineClient client() {
        return client;
    }

    /** Everything it logged so far. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye; returns once it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the server survived SIGKILL for 30 s");
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
