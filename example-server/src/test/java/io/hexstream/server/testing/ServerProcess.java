package io.hexstream.server.testing;

import io.hexstream.codec.HexDecoder;
import io.hexstream.server.auth.JwtSecret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The example server ({@code io.hexstream.server.cli.Main}) in a JVM of its own, on this test's class path, over a data
 * dir with no generated blobs, logging to a file: what a crash test needs to kill with SIGKILL, what a load test needs
 * to hold to its own heap and direct memory limits, and what a start-up test needs to stop with SIGTERM or to see fail
 * ({@link #run}). Close it to kill it if it still runs.
 */
public final class ServerProcess implements AutoCloseable {
    private static final long START_TIMEOUT_MS = 60_000;
    /** What the server logs once it has written its hashes file: started. */
    private static final String READY = " blobs in the pool, versioned hashes in ";

    private final Process process;
    private final Path log;
    /** Where its stderr goes, or {@code null} if into {@link #log}. */
    private final Path stderr;

    private final EngineClient client;

    private ServerProcess(Process process, Path log, Path stderr, EngineClient client) {
        this.process = process;
        this.log = log;
        this.stderr = stderr;
        this.client = client;
    }

    /** A run of {@code Main} that has ended: its exit code and what it printed. */
    public record Run(int exitCode, String stdout, String stderr) {}

    /**
     * Runs {@code Main} with {@code args} in a JVM of its own until it exits (60 s at most), its output in
     * {@code dir/name.out} and {@code dir/name.err}.
     */
    public static Run run(Path dir, String name, String... args) throws IOException, InterruptedException {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process process = launch(List.of(), List.of(), List.of(args), out, err);
        if (!process.waitFor(START_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("still running after " + START_TIMEOUT_MS + " ms: " + List.of(args));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * Starts {@code Main} with {@code args} (which give {@code --port port}, and {@code --jwt-secret} or
     * {@code --data-dir} so that {@code secret} is its secret file) in a JVM of its own, its log in
     * {@code dir/name.out} and its stderr in {@code dir/name.err}; returns once it has started, with a client holding
     * that secret.
     */
    public static ServerProcess serve(Path dir, String name, int port, Path secret, String... args)
            throws IOException, InterruptedException {
        Process process = launch(
                List.of(), List.of("-Xmx256m"), List.of(args), dir.resolve(name + ".out"), dir.resolve(name + ".err"));
        ServerProcess server = new ServerProcess(process, dir.resolve(name + ".out"), dir.resolve(name + ".err"), null);
        try {
            server.awaitListening(port);
            return new ServerProcess(
                    process,
                    server.log,
                    server.stderr,
                    EngineClient.authenticated(port, JwtSecret.read(secret).bytes()));
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** A free loopback port (free when this returns). */
    public static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    /**
     * Starts {@code --fork osaka} over {@code dataDir} with the JWT secret {@link EngineServerFixture#SECRET} in a JVM
     * with a 256 MiB heap, and returns once it listens.
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
    public static ServerProcess start(Path dataDir, Path log, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return start(dataDir, log, jvmOptions, List.of());
    }

    /**
     * As {@link #start(Path, Path, List)}, the JVM run by the command {@code wrapper} (e.g. {@code strace -f -o FILE};
     * empty: none), of which it is then the child: {@link #stop} and {@link #kill} signal the JVM, and wait for the
     * wrapper to end.
     */
    public static ServerProcess start(Path dataDir, Path log, List<String> jvmOptions, List<String> wrapper)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        Path secret = Files.writeString(dataDir.resolve("test-jwt.hex"), EngineServerFixture.SECRET);
        int port = freePort();
        Process process = launch(
                wrapper,
                jvmOptions,
                List.of(
                        "--port",
                        Integer.toString(port),
                        "--data-dir",
                        dataDir.toString(),
                        "--jwt-secret",
                        secret.toString(),
                        "--generate",
                        "0",
                        "--fork",
                        "osaka"),
                log,
                null);
        ServerProcess server = new ServerProcess(
                process, log, null, EngineClient.authenticated(port, HexDecoder.decode(EngineServerFixture.SECRET)));
        try {
            server.awaitListening(port);
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * {@code Main} with {@code args} in a JVM with {@code jvmOptions} and paranoid leak detection, stdout to
     * {@code out}, stderr to {@code err} ({@code null}: to {@code out} too).
     */
    private static Process launch(List<String> wrapper, List<String> jvmOptions, List<String> args, Path out, Path err)
            throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        // KZG's native library: JDK 22 and later warn on stderr about System.load without this (JDK 17 takes it too).
        command.addAll(List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-Dio.netty.leakDetection.level=paranoid",
                // The test's temporary directory (target/tmp): native libraries are extracted there, not to /tmp.
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                "io.hexstream.server.cli.Main"));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile());
        return (err == null ? builder.redirectErrorStream(true) : builder.redirectError(err.toFile())).start();
    }

    /** Waits until it listens on {@code port} and has written its hashes file. */
    private void awaitListening(int port) throws IOException, InterruptedException {
        String listening = " on http://127.0.0.1:" + port;
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (!(log().contains(listening) && log().contains(READY))) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                throw new AssertionError("the server did not start; its log:\n" + log()
                        + (stderr == null ? "" : "its stderr:\n" + stderr()));
            }
            Thread.sleep(50); // a poll of another process's log, with the deadline above
        }
    }

    /** The server's port (JWT required). */
    public int port() {
        return client.uri().getPort();
    }

    /**
     * The process's peak resident set ({@code VmHWM} in {@code /proc/<pid>/status}, Linux), bytes; -1 where the system
     * does not say.
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

    public long pid() {
        return process.pid();
    }

    /** What it wrote to stderr so far ({@link #serve}d servers only). */
    public String stderr() throws IOException {
        return Files.readString(stderr);
    }

    /** SIGTERM, as Ctrl-C or a service manager stops it; returns its exit code once it is gone. */
    public int stop() throws InterruptedException {
        server().forEach(ProcessHandle::destroy);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the server survived SIGTERM for 30 s");
        }
        return process.exitValue();
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
        server().forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the server survived SIGKILL for 30 s");
        }
    }

    /** The JVM: the process started, or its child under a wrapper. */
    private List<ProcessHandle> server() {
        List<ProcessHandle> children = process.children().toList();
        return children.isEmpty() ? List.of(process.toHandle()) : children;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
