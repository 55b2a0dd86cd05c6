package io.hexstream.jmh.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The driver's handle on one {@link E2eServer} JVM: started with this JVM's {@code java} and class path, a 2 GiB heap
 * touched at start ({@code -Xms2g -Xmx2g -XX:+AlwaysPreTouch}, as a long-running node's heap is: on this VM the first
 * touch of a page costs more than a heavy response's work, which would weigh on the servers that allocate most; 2 GiB
 * because every server of a run is up at once, and their touched heaps must fit in the machine's memory), and
 * {@code --add-modules jdk.incubator.vector} for the SIMD kernel; its log goes to the file given (standard error beside
 * it, {@code .err}).
 */
final class ServerJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader replies;
    private final PrintStream commands;
    private final InetSocketAddress address;
    private final Path ipcPath;
    private final String kernel;

    private ServerJvm(Process process, BufferedReader replies, InetSocketAddress address, Path ipcPath, String kernel) {
        this.process = process;
        this.replies = replies;
        this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.US_ASCII);
        this.address = address;
        this.ipcPath = ipcPath;
        this.kernel = kernel;
    }

    static ServerJvm start(String mode, boolean vector, Path dataDir, Path log) throws IOException {
        return start(E2eServer.class, mode, vector, dataDir, log);
    }

    /** A server JVM running {@code main} ({@code main MODE DATA_DIR}, answering as {@link E2eServer} does). */
    static ServerJvm start(Class<?> main, String mode, boolean vector, Path dataDir, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms2g",
                "-Xmx2g",
                "-XX:+AlwaysPreTouch"));
        if (vector) {
            command.add("--add-modules=jdk.incubator.vector");
        }
        command.addAll(List.of(
                "-Dorg.slf4j.simpleLogger.logFile=" + log,
                "-cp",
                System.getProperty("java.class.path"),
                main.getName(),
                mode,
                dataDir.toString()));
        Process process = new ProcessBuilder(command)
                .redirectError(log.resolveSibling(log.getFileName() + ".err").toFile())
                .start();
        BufferedReader replies =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        for (String line; (line = replies.readLine()) != null; ) {
            if (line.startsWith("ready ")) {
                String[] words = line.split(" ");
                return new ServerJvm(
                        process,
                        replies,
                        new InetSocketAddress("127.0.0.1", Integer.parseInt(words[1])),
                        E2eServer.ipcPath(dataDir),
                        words[2]);
            }
        }
        throw new IOException("the " + mode + " server exited with " + waitFor(process) + "; see " + log);
    }

    InetSocketAddress address() {
        return address;
    }

    /** The product server's IPC socket ({@code --ipc-path}); nothing listens on it for the other modes. */
    Path ipcPath() {
        return ipcPath;
    }

    /** The codec kernel the server JVM runs ({@code Hex.kernel()}). */
    String kernel() {
        return kernel;
    }

    /** Sends {@code command} and returns the server's one-line answer as a number. */
    long ask(String command) throws IOException {
        commands.println(command);
        String reply = replies.readLine();
        if (reply == null) {
            throw new IOException("the server exited");
        }
        return reply.equals("ok") ? 0 : Long.parseLong(reply);
    }

    @Override
    public void close() throws IOException {
        commands.close();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
