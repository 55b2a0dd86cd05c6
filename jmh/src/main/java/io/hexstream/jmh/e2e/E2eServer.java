package io.hexstream.jmh.e2e;

import io.hexstream.codec.Hex;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;

/**
 * One server of the end-to-end benchmark, in a JVM of its own (so that each kernel, each peer, has its
 * JIT, heap and threads to itself): {@code E2eServer MODE DATA_DIR} serves the pool of {@code DATA_DIR}
 * (topped up to {@value EndToEndBenchmark#POOL_BLOBS} blobs) on a free loopback port, prints
 * {@code ready PORT KERNEL}, then answers the driver's commands on standard input, one a line:
 * {@code heap} (bytes allocated so far by the server's threads), {@code cpu} (CPU nanoseconds its
 * threads have run so far), {@code reset} (a new direct-memory peak from now), {@code peak} (the peak
 * since then); end of input stops it. Modes: {@code hexstream} (the product, hex cache off: every
 * response encoded), {@code hexstream-cache} (the product answering from its hex cache, 64 MiB, which
 * holds the whole pool), {@code prerendered} (the transport floor),
 * {@code jacksonStringsWholeBody} (Strings, the whole body as one array), {@code besuStreaming}
 * ({@link BesuLikeServer}).
 */
public final class E2eServer {
    /** The {@code hexstream-cache} mode's cache: the whole pool's digits (128 × 274,528 bytes) and room. */
    static final int HEX_CACHE_MIB = 64;

    private E2eServer() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dataDir = Path.of(args[1]);
        // The product's own server first: it generates the pool if need be, and holds the secret.
        ResponseRenderer renderer = switch (mode) {
            case "hexstream", "hexstream-cache", "besuStreaming" -> null; // the server's own, over its writer
            case "prerendered" -> new PrerenderedRenderer();
            case "jacksonStringsWholeBody" -> new JacksonStringsRenderer();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
        int hexCacheMib = mode.equals("hexstream-cache") ? HEX_CACHE_MIB : 0;
        try (ExampleServer server = ExampleServer.start(ExampleServer.Config.builder().port(0).dataDir(dataDir)
                .generate(EndToEndBenchmark.POOL_BLOBS).fork(Fork.OSAKA).hexCacheMib(hexCacheMib).build(),
                writer -> renderer != null ? renderer : ResponseRenderer.streaming(writer), Clock.systemUTC());
                MemoryProbe memory = new MemoryProbe()) {
            AutoCloseable besu = null;
            InetSocketAddress address = server.address();
            if (mode.equals("besuStreaming")) {
                BesuLikeServer peer = BesuLikeServer.start(
                        DurableBlobPool.open(dataDir, EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE), server.secret().bytes());
                besu = peer;
                address = peer.address();
            }
            System.out.println("ready " + address.getPort() + " " + Hex.kernel());
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
            for (String command; (command = commands.readLine()) != null; ) {
                switch (command) {
                    case "heap" -> System.out.println(MemoryProbe.ioThreadsAllocatedBytes());
                    case "cpu" -> System.out.println(MemoryProbe.serverThreadsCpuNanos());
                    case "reset" -> {
                        memory.resetPeak();
                        System.out.println("ok");
                    }
                    case "peak" -> System.out.println(memory.peakDirect());
                    default -> System.out.println("unknown command " + command);
                }
            }
            if (besu != null) {
                besu.close();
            }
        } finally {
            if (renderer instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
    }
}
