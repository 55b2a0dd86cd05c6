package io.hexstream.codec.testing;

import org.junit.jupiter.api.Assumptions;

/**
 * A test that needs what the machine may not have (a tool, a library): without it, the test is skipped with one line
 * saying what to install, on the console as well as in its report (where surefire alone would keep it).
 */
public final class Assume {
    private Assume() {}

    /** Skips the calling test unless {@code holds}, {@code reason} its one line. */
    public static void that(boolean holds, String reason) {
        if (!holds) {
            System.out.println("skipped: " + reason);
        }
        Assumptions.assumeTrue(holds, reason);
    }
}
