package io.hexstream.server.testing;

import java.nio.file.Path;

/**
 * The directories under {@code target/} that a test JVM keeps for itself across its test classes (pools generated
 * once): one per JVM, as surefire runs example-server's tests in two JVMs at once ({@code hexstream.test.fork}, the
 * fork's number) and a pool's directory is locked by the one that opened it.
 */
public final class ForkDirectories {
    private static final String FORK = System.getProperty("hexstream.test.fork", "1");

    private ForkDirectories() {}

    /** {@code target/NAME-FORK}. */
    public static Path of(String name) {
        return Path.of("target", name + "-" + FORK);
    }
}
