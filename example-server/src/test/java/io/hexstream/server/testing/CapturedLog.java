package io.hexstream.server.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The log of the servers in this JVM (slf4j-simple writes to {@code System.out}, simplelogger.properties) taken aside
 * while a test injects a fault: the test asserts on what was logged, and the failure it caused on purpose, stack trace
 * and all, does not reach the build's output, where it would read like a real one. Closing restores the output.
 */
public final class CapturedLog implements AutoCloseable {
    private final PrintStream original = System.out;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private CapturedLog() {
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    }

    /** Takes the log aside until {@link #close()}. */
    public static CapturedLog start() {
        return new CapturedLog();
    }

    /** What was logged so far. */
    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setOut(original);
    }
}
