package io.hexstream.server.cli;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The launcher's filter of the JVM's stderr ({@code bin/hexstream-example-server}; it names the filter's process, a
 * child of the JVM, in {@value #FILTER_PID}). The JVM's lines reach the launcher's stderr only once the filter has
 * copied them, so as the JVM ends it lets go of stderr and waits for the filter to copy the rest and end: whoever reads
 * the launcher's stderr until its process has ended (a {@link Process}, a file, a pipe) then has every line.
 */
final class LauncherStderr {
    /** The environment variable in which the launcher names its filter's process id. */
    static final String FILTER_PID = "HEXSTREAM_STDERR_FILTER";

    /** How long the JVM waits for the filter, at most, before it ends anyway. */
    private static final long DRAIN_MILLIS = 2_000;

    private LauncherStderr() {}

    /**
     * If this JVM's stderr goes through the launcher's filter: closes {@link System#err} (the JDK points descriptor 2
     * at {@code /dev/null} rather than closing it, so the filter reads the end of its input) and waits for the filter
     * to end. Nothing written to {@link System#err} afterwards appears. Otherwise does nothing.
     */
    static void drain() {
        Optional<ProcessHandle> filter = filter(System.getenv(FILTER_PID));
        if (filter.isEmpty()) {
            return;
        }
        System.out.flush();
        System.err.close();
        try {
            filter.get().onExit().get(DRAIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // The JVM ends anyway; the filter copies what is left as it can.
        }
    }

    /** The filter named by {@code pid}, if it is this JVM's child (so an inherited or stale name waits on nothing). */
    private static Optional<ProcessHandle> filter(String pid) {
        if (pid == null || !pid.matches("[1-9][0-9]{0,9}")) {
            return Optional.empty();
        }
        long id = Long.parseLong(pid);
        return ProcessHandle.current()
                .children()
                .filter(child -> child.pid() == id)
                .findFirst();
    }
}
