package io.hexstream.server.testing;

import java.time.Duration;

/**
 * How big the reliability tests run: reduced in the normal build (CI), full size with
 * {@code -Dhexstream.reliability.full=true} (example-server/README.md's "Reliability" section has the command).
 */
public final class ReliabilitySizes {
    /** Whether this is the full-size run. */
    public static final boolean FULL = Boolean.getBoolean("hexstream.reliability.full");

    private ReliabilitySizes() {}

    /** How long the stalled readers stay stalled while a healthy client keeps asking. */
    public static Duration stall() {
        return FULL ? Duration.ofMinutes(2) : Duration.ofSeconds(10);
    }

    /** How many clients hang up in the disconnect storm. */
    public static int disconnects() {
        return FULL ? 10_000 : 2_000;
    }

    /** How long the sustained load runs. */
    public static Duration load() {
        return FULL ? Duration.ofMinutes(5) : Duration.ofSeconds(60);
    }

    /** A line saying which sizes these are, for the tests' printed figures. */
    public static String label() {
        return FULL ? "full size" : "reduced (CI) size";
    }
}
