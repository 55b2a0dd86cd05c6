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
 * SIGKILL, and what a load test needs to hold to its own heap and direct memory limits. Close it to
 * kill it if it still runs.
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
     * in a JVM with a 256 MiB heap, and returns once it listens.
     *
     * @param log where its stdout and stderr go (replaced)
     */
    public static ServerProcess start(Path dataDir, Path log) throws IOException, InterruptedException {
        return start(dataDir, log, List.of("-Xmx256m"));
    }

    /**
     * As {@link #start(Path, Path)}, in a JVM with {@code jvmOptions} (heap and direct memory limits, modules);
     * paranoid leak detection is always on, so that a leak shows as a {@code LEAK} line in its log.
     */
    public static ServerProcess start(Path dataDir, Path log, List<String> jvmOptions) throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        Path secret = Files.writeString(dataDir.resolve("test-jwt.hex"), EngineServerFixture.SECRET);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Dio.netty.leakDetection.level=paranoid", "-cp", System.getProperty("java.class.path"),
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

    /** The server's port (JWT required). */
    public int port() {
        return client.uri().getPort();
    }

    /**
     * The process's peak resident set ({@code VmHWM} in {@code /proc/<pid>/status}, Linux), bytes; -1 where
     * the system does not say.
     */
    public long peakResidentBytes() {
        Path status = Path.of("/proc", Long.toString(process.pid()), "status");
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            // not Linux, or already gone
        }
        return -1;
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
