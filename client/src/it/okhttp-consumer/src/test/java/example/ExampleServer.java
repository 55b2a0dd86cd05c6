package example;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The example server's jar ({@code -Dhexstream.serverJar}) run as an operator runs it, {@code java -jar}, in a JVM of
 * its own on a free port; its log (stdout and stderr) read line by line as it comes.
 */
final class ExampleServer implements AutoCloseable {
    private static final long START_TIMEOUT_S = 180;
    private static final Pattern ENGINE_PORT =
            Pattern.compile("Engine API \\(\\w+\\) on http://127\\.0\\.0\\.1:(\\d+) ");
    /** Logged once the generated blobs are pooled and their hashes file written. */
    private static final String READY = " blobs in the pool, versioned hashes in ";

    private final Process process;
    private final int port;

    private ExampleServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts {@code --fork osaka} with {@code blobs} generated blobs over {@code dataDir} and the secret in
     * {@code jwtSecret}; returns once they are pooled.
     */
    static ExampleServer start(Path dataDir, Path jwtSecret, int blobs) throws IOException, InterruptedException {
        Path jar = Path.of(System.getProperty("hexstream.serverJar"));
        // KZG's native library is extracted to the temporary directory: target/tmp, not /tmp.
        Path tmp = Files.createDirectories(Path.of("target", "tmp")).toAbsolutePath();
        Process process = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Djava.io.tmpdir=" + tmp,
                        "-jar",
                        jar.toString(),
                        "--port",
                        "0",
                        "--data-dir",
                        dataDir.toString(),
                        "--jwt-secret",
                        jwtSecret.toString(),
                        "--generate",
                        Integer.toString(blobs),
                        "--fork",
                        "osaka"))
                .redirectErrorStream(true)
                .start();
        CompletableFuture<Integer> started = new CompletableFuture<>();
        Thread log = new Thread(() -> readLog(process, started), "example-server-log");
        log.setDaemon(true);
        log.start();
        try {
            return new ExampleServer(process, started.get(START_TIMEOUT_S, TimeUnit.SECONDS));
        } catch (TimeoutException e) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("not started after " + START_TIMEOUT_S + " s");
        } catch (ExecutionException e) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(e.getCause().getMessage());
        }
    }

    /** Completes {@code started} with the Engine API's port once the server is ready; drains the log to its end. */
    private static void readLog(Process process, CompletableFuture<Integer> started) {
        StringBuilder seen = new StringBuilder();
        int port = -1;
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (!started.isDone()) {
                    seen.append(line).append('\n');
                }
                Matcher engine = ENGINE_PORT.matcher(line);
                if (engine.find()) {
                    port = Integer.parseInt(engine.group(1));
                }
                if (line.contains(READY) && port > 0) {
                    started.complete(port);
                }
            }
        } catch (IOException e) {
            seen.append(e).append('\n');
        }
        started.completeExceptionally(new IllegalStateException("the server ended before it started:\n" + seen));
    }

    /** The Engine API's port (JWT required). */
    int port() {
        return port;
    }

    /** SIGTERM, as an operator stops it; its exit code once it has ended. */
    int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("still running 30 s after SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor();
        }
    }
}
