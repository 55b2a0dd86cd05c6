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
 * ({@link #run}). {@link #run} and {@link #serve} start it as a user does, through the launcher ({@link Launcher}; the
 * Vector API resolved, the JVM's stderr through its filter), so that what they see on stderr is what a user sees;
 * {@link #start} runs {@code java} itself. Close it to kill it if it still runs.
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
    /** Whether {@link #process} is a wrapper whose child is the JVM (else it is the JVM: the launcher exec's it). */
    private final boolean wrapped;

    private ServerProcess(Process process, Path log, Path stderr, EngineClient client, boolean wrapped) {
        this.process = process;
        this.log = log;
        this.stderr = stderr;
        this.client = client;
        this.wrapped = wrapped;
    }

    /** What the server is run with: the JVM's temporary directory (and the launcher's), options, arguments. */
    private record Launch(Path tmpdir, List<String> jvmOptions, List<String> args) {
        Launch(List<String> jvmOptions, List<String> args) {
            this(Path.of(System.getProperty("java.io.tmpdir")), jvmOptions, args);
        }
    }

    /** A run of {@code Main} that has ended: its exit code and what it printed. */
    public record Run(int exitCode, String stdout, String stderr) {}

    /**
     * Runs {@code Main} with {@code args} in a JVM of its own until it exits (60 s at most), its output in
     * {@code dir/name.out} and {@code dir/name.err}.
     */
    public static Run run(Path dir, String name, String... args) throws IOException, InterruptedException {
        return runWithTmpdir(Path.of(System.getProperty("java.io.tmpdir")), dir, name, args);
    }

    /** As {@link #run}, with {@code tmpdir} as the JVM's {@code java.io.tmpdir} and the launcher's {@code TMPDIR}. */
    public static Run runWithTmpdir(Path tmpdir, Path dir, String name, String... args)
            throws IOException, InterruptedException {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process process = launchThroughLauncher(new Launch(tmpdir, List.of(), List.of(args)), out, err);
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
        return serveWithTmpdir(Path.of(System.getProperty("java.io.tmpdir")), dir, name, port, secret, args);
    }

    /** As {@link #serve}, with {@code tmpdir} as the JVM's {@code java.io.tmpdir} and the launcher's {@code TMPDIR}. */
    public static ServerProcess serveWithTmpdir(
            Path tmpdir, Path dir, String name, int port, Path secret, String... args)
            throws IOException, InterruptedException {
        Process process = launchThroughLauncher(
                new Launch(tmpdir, List.of("-Xmx256m"), List.of(args)),
                dir.resolve(name + ".out"),
                dir.resolve(name + ".err"));
        ServerProcess server =
                new ServerProcess(process, dir.resolve(name + ".out"), dir.resolve(name + ".err"), null, false);
        try {
            server.awaitListening(port);
            return new ServerProcess(
                    process,
                    server.log,
                    server.stderr,
                    EngineClient.authenticated(port, JwtSecret.read(secret).bytes()),
                    false);
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
                new Launch(
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
                                "osaka")),
                log,
                null);
        ServerProcess server = new ServerProcess(
                process,
                log,
                null,
                EngineClient.authenticated(port, HexDecoder.decode(EngineServerFixture.SECRET)),
                !wrapper.isEmpty());
        try {
            server.awaitListening(port);
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * {@code Main} run by {@code java} itself as {@code launch} says, with paranoid leak detection, stdout to
     * {@code out}, stderr to {@code err} ({@code null}: to {@code out} too).
     */
    private static Process launch(List<String> wrapper, Launch launch, Path out, Path err) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // KZG's native library: JDK 22 and later warn on stderr about System.load without this (JDK 17 takes it too).
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmOptions(launch));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.hexstream.server.cli.Main"));
        command.addAll(launch.args());
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile());
        return (err == null ? builder.redirectErrorStream(true) : builder.redirectError(err.toFile())).start();
    }

    /**
     * {@code Main} run through the launcher as {@code launch} says ({@code JAVA_HOME} this JVM's, the options in
     * {@code JAVA_OPTS}), stdout to {@code out}, stderr to {@code err}: as a user's file, read once the process has
     * ended (the JVM waits for the launcher's filter to write its last line before it ends).
     */
    private static Process launchThroughLauncher(Launch launch, Path out, Path err) throws IOException {
        List<String> command = new ArrayList<>(List.of("sh", Launcher.script().toString()));
        command.addAll(launch.args());
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("JAVA_OPTS", String.join(" ", jvmOptions(launch)));
        builder.environment().put("TMPDIR", launch.tmpdir().toString());
        return builder.start();
    }

    /** The JVM's options: paranoid leak detection, {@code java.io.tmpdir}, then {@code launch}'s own. */
    private static List<String> jvmOptions(Launch launch) {
        List<String> options = new ArrayList<>(List.of(
                "-Dio.netty.leakDetection.level=paranoid",
                // The test's temporary directory (target/tmp) unless the test gives its own: not /tmp.
                "-Djava.io.tmpdir=" + launch.tmpdir()));
        options.addAll(launch.jvmOptions());
        return options;
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

    /** What it wrote to stderr so far, all of it once it has ended ({@link #serve}d servers only). */
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
        List<ProcessHandle> children = wrapped ? process.children().toList() : List.of();
        return children.isEmpty() ? List.of(process.toHandle()) : children;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
