package io.hexstream.jmh.e2e;

import io.hexstream.codec.Hex;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.ServerOptions;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ResponseRenderer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One server of the end-to-end benchmark, in a JVM of its own (so that each kernel, each peer, has its JIT, heap and
 * threads to itself): {@code E2eServer MODE DATA_DIR} serves the pool of {@code DATA_DIR} (topped up to
 * {@value EndToEndBenchmark#POOL_BLOBS} blobs) on a free loopback port, prints {@code ready PORT KERNEL}, then answers
 * the driver's commands ({@link DriverCommands}, the heap counted on the server's I/O threads); end of input stops it.
 * Modes: {@code hexstream} (the product, hex cache off: every response encoded), {@code hexstream-cache} (the product
 * answering from its hex cache, 64 MiB, which holds the whole pool), {@code ssz} (the product, asked by
 * {@link SszMode}), {@code hexstreamMetrics} (the product with {@code --metrics-port}, scraped once a second by a
 * {@link PeriodicScrape} in the same JVM, as Prometheus would), {@code prerendered} (the transport floor),
 * {@code sendfile} ({@link SendfileRenderer}: the floor's bytes from files in {@code DATA_DIR}, sent as file regions),
 * {@code besuWholeBody} (Besu's values, the whole body as one array), {@code besuStreaming} ({@link BesuLikeServer}).
 */
public final class E2eServer {
    /** The {@code hexstream-cache} mode's cache: the whole pool's digits (128 × 274,528 bytes) and room. */
    static final int HEX_CACHE_MIB = 64;

    private E2eServer() {}

    /**
     * The product server's IPC socket, in its data dir (a relative path where the data dir is one: a socket's path is
     * at most 107 bytes).
     */
    static Path ipcPath(Path dataDir) {
        return dataDir.resolve("engine.ipc");
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path dataDir = Path.of(args[1]);
        boolean metrics = mode.equals("hexstreamMetrics");
        // The product's own server first: it generates the pool if need be, and holds the secret.
        ResponseRenderer renderer = switch (mode) {
            case "hexstream", "hexstream-cache", "hexstreamMetrics", "besuStreaming", "ssz" -> null; // the server's own
            case "prerendered" -> new PrerenderedRenderer();
            case "sendfile" -> new SendfileRenderer(dataDir);
            case "besuWholeBody" -> new BesuWholeBodyRenderer();
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        };
        int hexCacheMib = mode.equals("hexstream-cache") ? HEX_CACHE_MIB : 0;
        List<String> options = new ArrayList<>(List.of(
                "--port",
                "0",
                "--data-dir",
                dataDir.toString(),
                "--generate",
                Integer.toString(EndToEndBenchmark.POOL_BLOBS),
                "--fork",
                "osaka",
                "--hex-cache-mib",
                Integer.toString(hexCacheMib)));
        if (metrics) {
            options.addAll(List.of("--metrics-port", "0"));
        }
        if (renderer == null && !mode.equals("besuStreaming")) { // the product itself: also over IPC
            options.addAll(List.of("--ipc-path", ipcPath(dataDir).toString()));
        }
        try (ExampleServer server = ExampleServer.builder(ServerOptions.parse(options.toArray(String[]::new)))
                        .renderer(writer -> renderer != null ? renderer : ResponseRenderer.streaming(writer))
                        .start();
                MemoryProbe memory = new MemoryProbe();
                AutoCloseable scrapes = metrics
                        ? new PeriodicScrape(server.metricsAddress(), Duration.ofSeconds(1), body -> {})
                        : () -> {}) {
            AutoCloseable besu = null;
            InetSocketAddress address = server.engineAddress();
            if (mode.equals("besuStreaming")) {
                BesuLikeServer peer = BesuLikeServer.start(
                        DurableBlobPool.open(dataDir, EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE),
                        server.secret().bytes());
                besu = peer;
                address = peer.address();
            }
            System.out.println("ready " + address.getPort() + " " + Hex.kernel());
            DriverCommands.serve(memory, MemoryProbe::ioThreadsAllocatedBytes);
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
