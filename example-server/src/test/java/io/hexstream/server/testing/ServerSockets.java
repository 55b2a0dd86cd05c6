package io.hexstream.server.testing;

import io.hexstream.codec.testing.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The server side of loopback connections as the kernel lists them ({@code /proc/net/tcp} and {@code tcp6}, and
 * {@code /proc/net/unix} for IPC, Linux): how a test knows that a server in this JVM has closed every connection its
 * clients hung up, so that nothing of theirs can still be reachable when it looks for leaks.
 */
public final class ServerSockets {
    private static final List<Path> TABLES = List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"));
    /** Kernel TCP states of a socket its owner has not closed: established, SYN received, close wait. */
    private static final List<String> OPEN = List.of("01", "03", "08");

    private static final Path UNIX = Path.of("/proc/net/unix");
    /** The flag of a listening Unix domain socket ({@code __SO_ACCEPTCON}) in {@code /proc/net/unix}. */
    private static final int ACCEPTING = 0x10000;

    private ServerSockets() {}

    /**
     * Connections accepted on the Unix domain socket {@code path} (the listener excluded) that the server has not
     * closed yet: an accepted socket is listed with its listener's path, a client's without one.
     */
    public static int openUnix(Path path) {
        String name = path.toAbsolutePath().toString();
        int open = 0;
        try {
            for (String line : Files.readAllLines(UNIX)) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length > 7 && fields[7].equals(name) && (Integer.parseInt(fields[3], 16) & ACCEPTING) == 0) {
                    open++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return open;
    }

    /** As {@link #awaitAtMost}, for the connections accepted on the Unix domain socket {@code path}. */
    public static int awaitUnixAtMost(Path path, int expected, Duration timeout) throws InterruptedException {
        Poll.within(() -> openUnix(path) <= expected, timeout);
        return openUnix(path);
    }

    /** Connections whose local port is {@code port} (the listener excluded) that the server has not closed yet. */
    public static int open(int port) {
        return open(port, null);
    }

    /**
     * Connections whose local port is {@code port} and whose peer's port is one of {@code clientPorts} ({@code null}:
     * any) that the server has not closed yet.
     */
    private static int open(int port, Set<Integer> clientPorts) {
        String local = String.format(Locale.ROOT, ":%04X", port);
        int open = 0;
        for (Path table : TABLES) {
            if (!Files.exists(table)) {
                continue;
            }
            try {
                for (String line : Files.readAllLines(table)) {
                    String[] fields = line.trim().split("\\s+");
                    if (fields.length > 3
                            && fields[1].endsWith(local)
                            && OPEN.contains(fields[3])
                            && (clientPorts == null || clientPorts.contains(peerPort(fields[2])))) {
                        open++;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return open;
    }

    /** The port of an address as the kernel lists it, {@code 0100007F:C350}. */
    private static int peerPort(String address) {
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
    }

    /**
     * Waits until at most {@code expected} connections to {@code port} are open on the server's side; returns how many
     * are, which is more than {@code expected} only if {@code timeout} ran out.
     */
    public static int awaitAtMost(int port, int expected, Duration timeout) throws InterruptedException {
        Poll.within(() -> open(port) <= expected, timeout);
        return open(port);
    }

    /**
     * Waits until the server has closed its side of each connection to {@code port} from the local ports
     * {@code clientPorts} (the test's own, hung up), whatever other clients keep open; returns how many it has not,
     * more than zero only if {@code timeout} ran out.
     */
    public static int awaitClosed(int port, Set<Integer> clientPorts, Duration timeout) throws InterruptedException {
        Poll.within(() -> open(port, clientPorts) == 0, timeout);
        return open(port, clientPorts);
    }
}
