package io.hexstream.server;

import io.hexstream.codec.Hex;
import io.hexstream.server.ServerOptions.SecretOptions;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.engine.ElementRenderer;
import io.hexstream.server.exec.BoundedExecutor;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.Instrumentation;
import io.hexstream.server.metrics.MetricsEndpoint;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.pool.PoolListener;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The quick start-up steps, one named method each: lock the data dir ({@link DataDirLock}), load KZG and its trusted
 * setup, read or generate the secret ({@link #loadSecret}), open the hex cache, load the stored pool
 * ({@link #openPool}), start the executors (a scrape executor too with {@code --metrics-port}), then wire and bind the
 * ports ({@link ServerWiring#bind}). The secret and the stored pool come before the bind because the handler checks
 * every JWT with the secret, and a transaction taken in while the store is still being read would be filed out of
 * order; all are quick, so that a taken port is found out at once. A step that fails throws a {@link StartupException}
 * naming what failed, and what the steps before it made is undone: a secret it generated and a store directory it
 * created are removed (the data dir and its lock file stay).
 */
final class Startup {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);

    /** Blocking calls that may wait for an ingest thread, per thread; more are answered "server busy". */
    static final int INGEST_QUEUE_PER_THREAD = 16;
    /** Threads that parse and dispatch request bodies over 64 KiB, off the event loops: half the cores. */
    static final int LARGE_REQUEST_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Large requests that may wait for such a thread; more are refused with 503 "server busy", unparsed. */
    static final int LARGE_REQUEST_QUEUE = 64;

    private Startup() {}

    /** Runs the steps; the server serves from their end on. */
    static ExampleServer open(
            ServerOptions options, Function<ResponseWriter, ResponseRenderer> renderer, Clock clock, Seams seams)
            throws StartupException, InterruptedException {
        DataDirLock lock = DataDirLock.acquire(options.dataDir());
        List<ExecutorService> executors = new ArrayList<>();
        HexCache hexCache = null;
        Path store = options.dataDir().resolve(DurableBlobPool.DIRECTORY);
        boolean storeExisted = Files.exists(store);
        JwtSecret secret = null;
        boolean secretExisted = Files.exists(options.secret.file());
        try {
            Kzg.load();
            secret = loadSecret(options.secret);
            Instrumentation instrumentation = Instrumentation.of(options.metricsPort, options.accessLog);
            hexCache = openHexCache(options);
            DurableBlobPool pool = openPool(options, instrumentation.metrics(), hexCache, seams.storeFiles());
            ThreadPoolExecutor ingest = BoundedExecutor.create(
                    "hexstream-ingest", options.ingestThreads, options.ingestThreads * INGEST_QUEUE_PER_THREAD);
            executors.add(ingest);
            ExecutorService largeRequests =
                    BoundedExecutor.create("hexstream-requests", LARGE_REQUEST_THREADS, LARGE_REQUEST_QUEUE);
            executors.add(largeRequests);
            ExecutorService scrapes = null;
            if (instrumentation.prometheus() != null) {
                scrapes = BoundedExecutor.create(
                        MetricsRoute.SCRAPE_THREAD, MetricsRoute.SCRAPE_THREADS, MetricsRoute.SCRAPE_QUEUE);
                executors.add(scrapes);
            }
            ListeningPorts ports = new ServerWiring(
                            options,
                            secret,
                            clock,
                            pool,
                            hexCache,
                            instrumentation,
                            ingest,
                            largeRequests,
                            scrapes,
                            seams.ingestWork())
                    .bind(renderer);
            logPorts(options, ports);
            return new ExampleServer(options, lock, secret, pool, hexCache, executors, ingest, ports);
        } catch (StartupException | InterruptedException | RuntimeException e) {
            executors.forEach(ExecutorService::shutdownNow);
            if (hexCache != null) {
                hexCache.close();
            }
            if (secret != null && !secretExisted) {
                deleteMade(secret.path());
            }
            if (!storeExisted) {
                deleteMade(store);
            }
            lock.close();
            throw e;
        }
    }

    /**
     * Removes a file or an empty directory that a failed start made; a directory that is not empty (nothing before the
     * bind stores an item) or a file that cannot be removed stays, with a warning.
     */
    private static void deleteMade(Path made) {
        try {
            Files.deleteIfExists(made);
        } catch (IOException e) {
            LOG.warn("cannot remove {}, made by this failed start: {}", made, StartupErrors.reason(e));
        }
    }

    /**
     * Reads the secret, or generates it (mode 600) if it is the default file and absent.
     *
     * @throws StartupException e.g. {@code --jwt-secret /x/jwt.hex: no such file}
     */
    static JwtSecret loadSecret(SecretOptions secret) throws StartupException {
        if (!secret.isDefault() || Files.exists(secret.file())) {
            return secret.read();
        }
        try {
            JwtSecret generated = JwtSecret.generate(secret.file());
            LOG.info("generated a JWT secret in {}", secret.file().toAbsolutePath());
            return generated;
        } catch (IOException e) {
            throw new StartupException(secret.name() + ": cannot create it: " + StartupErrors.reason(e), e);
        }
    }

    /** The hex cache, or {@code null} when {@code --hex-cache-mib} is 0; opened before the pool, which fills it. */
    private static HexCache openHexCache(ServerOptions options) {
        return options.hexCacheMib > 0
                ? new HexCache((long) options.hexCacheMib << 20, new ElementRenderer(options.fork))
                : null;
    }

    /** The durable pool with the stored items loaded, oldest first, each told to {@code hexCache} if any. */
    private static DurableBlobPool openPool(
            ServerOptions options, ServerMetrics metrics, HexCache hexCache, StoreFiles files) throws StartupException {
        try {
            return DurableBlobPool.open(
                    options.dataDir(),
                    options.poolMaxBlobs,
                    metrics,
                    hexCache != null ? hexCache : PoolListener.NONE,
                    files);
        } catch (IOException e) {
            throw new StartupException(
                    "--data-dir " + options.dataDir() + ": cannot load the pool: " + StartupErrors.reason(e), e);
        }
    }

    private static void logPorts(ServerOptions options, ListeningPorts ports) {
        InetSocketAddress engine = ports.address(ports.engine());
        LOG.info(
                "Engine API ({}) on http://{}:{} ({}); hex kernel {}; {}",
                options.fork.name().toLowerCase(Locale.ROOT),
                engine.getHostString(),
                engine.getPort(),
                EngineServer.nativeTransport() ? "epoll" : "NIO",
                kernel(),
                answerPath(options));
        InetSocketAddress rpc = ports.address(ports.rpc());
        if (rpc != null) {
            LOG.info("eth_sendRawTransaction without JWT on http://{}:{}", rpc.getHostString(), rpc.getPort());
        }
        InetSocketAddress scrape = ports.address(ports.metrics());
        if (scrape != null) {
            LOG.info("metrics on http://{}:{}{}", scrape.getHostString(), scrape.getPort(), MetricsEndpoint.PATH);
        }
        if (ports.ipc() != null) {
            LOG.info(
                    "Engine API without JWT on the Unix domain socket {}",
                    ports.ipc().path().toAbsolutePath());
        }
    }

    /** Where getBlobs' hex comes from, and why: the hex cache measured faster than encoding (jmh/README.md). */
    private static String answerPath(ServerOptions options) {
        return options.hexCacheMib > 0
                ? "getBlobs hex from the hex cache (" + options.hexCacheMib
                        + " MiB), measured faster than encoding each response; --hex-cache-mib 0 to encode"
                : "getBlobs hex encoded for each response (--hex-cache-mib 0)";
    }

    /** The codec's kernel as the log names it, with the way to SIMD where it is not in use. */
    private static String kernel() {
        return switch (Hex.kernel()) {
            case VECTOR -> "VECTOR (SIMD lanes)";
            case PAIR_TABLE ->
                "PAIR_TABLE (portable; for SIMD lanes start with bin/hexstream-example-server,"
                        + " or java --add-modules jdk.incubator.vector)";
        };
    }
}
