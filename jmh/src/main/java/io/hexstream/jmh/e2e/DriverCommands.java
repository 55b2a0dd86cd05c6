package io.hexstream.jmh.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * A server JVM's side of {@link ServerJvm}: answers the driver's commands on standard input, one a line, until the
 * input ends: {@code heap} (bytes allocated so far by the server's threads, as {@code allocatedHeap} counts them),
 * {@code cpu} (CPU nanoseconds its threads have run so far, {@link MemoryProbe#serverThreadsCpuNanos()}), {@code reset}
 * (a new direct-memory peak from now), {@code peak} (the peak since then).
 */
final class DriverCommands {
    private DriverCommands() {}

    /** Answers commands until standard input ends. */
    static void serve(MemoryProbe memory, LongSupplier allocatedHeap) throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String command; (command = commands.readLine()) != null; ) {
            switch (command) {
                case "heap" -> System.out.println(allocatedHeap.getAsLong());
                case "cpu" -> System.out.println(MemoryProbe.serverThreadsCpuNanos());
                case "reset" -> {
                    memory.resetPeak();
                    System.out.println("ok");
                }
                case "peak" -> System.out.println(memory.peakDirect());
                default -> System.out.println("unknown command " + command);
            }
        }
    }
}
