package io.hexstream.jmh.e2e;

import io.hexstream.codec.Hex;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One Vert.x server of {@link VertxEndToEndBenchmark}, in a JVM of its own: {@code VertxE2eServer MODE DATA_DIR} serves
 * the pool of {@code DATA_DIR} with a Vert.x {@code HttpServer} (default options: NIO, event loops and the 20 workers
 * Vert.x gives by default) on a free loopback port, behind {@link VertxEngineFront}; prints {@code ready PORT KERNEL},
 * then answers the driver's {@link DriverCommands}, the heap counted on every Vert.x thread and on the common fork-join
 * pool; end of input stops it. Modes: {@code vertxHexstream} ({@link VertxHexstreamResponder}), {@code vertxBesuLike}
 * ({@link VertxBesuResponder}), {@code vertxBesuHexModule} ({@link VertxBesuHexModuleResponder}).
 */
public final class VertxE2eServer {
    private VertxE2eServer() {}

    /** {@code VertxE2eServer MODE DATA_DIR}: serves until standard input ends. */
    public static void main(String[] args) throws Exception {
        VertxEngineFront.Responder responder = switch (args[0]) {
            case "vertxHexstream" -> new VertxHexstreamResponder();
            case "vertxBesuLike" -> new VertxBesuResponder();
            case "vertxBesuHexModule" -> new VertxBesuHexModuleResponder();
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        };
        DurableBlobPool pool = DurableBlobPool.open(Path.of(args[1]), EndToEndBenchmark.POOL_BLOBS, ServerMetrics.NONE);
        Vertx vertx = Vertx.vertx();
        try (MemoryProbe memory = new MemoryProbe()) {
            HttpServer server = vertx.createHttpServer()
                    .requestHandler(new VertxEngineFront(vertx, pool, responder))
                    .listen(0, "127.0.0.1")
                    .toCompletionStage()
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
            System.out.println("ready " + server.actualPort() + " " + Hex.kernel());
            DriverCommands.serve(memory, VertxE2eServer::serverThreadsAllocatedBytes);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** Heap allocated so far by the Vert.x threads (event loops, workers) and the common fork-join pool. */
    static long serverThreadsAllocatedBytes() {
        return MemoryProbe.allocatedBytes(
                name -> name.startsWith("vert.x-") || name.startsWith("ForkJoinPool.commonPool-worker-"));
    }
}
