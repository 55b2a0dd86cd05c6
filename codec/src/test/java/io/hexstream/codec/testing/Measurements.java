package io.hexstream.codec.testing;

import java.util.Locale;

/**
 * The figures a test measures (allocations, peaks, latencies) as it goes: printed only at {@code -Dtest.logLevel=info}
 * (or debug, trace), the level the parent POM hands the test JVMs as slf4j-simple's default level; at the default level
 * ({@code warn}) a green run prints none of them.
 */
public final class Measurements {
    private static final boolean PRINTED = switch (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "info")
            .toLowerCase(Locale.ROOT)) {
        case "info", "debug", "trace" -> true;
        default -> false;
    };

    private Measurements() {}

    /** Prints {@code line} if measurements are shown. */
    public static void report(String line) {
        if (PRINTED) {
            System.out.println(line);
        }
    }

    /** Prints {@link String#format(String, Object...)} of {@code format} and {@code args}, a line, if shown. */
    public static void report(String format, Object... args) {
        if (PRINTED) {
            System.out.println(String.format(Locale.ROOT, format, args).stripTrailing());
        }
    }
}
