package io.hexstream.server;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.EngineMethods;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.RefusalLog;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.BoundedExecutor;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.tx.TransactionIngest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server assembled: KZG loaded, secret, durable pool (transactions' blobs and generated
 * blobs topped up to {@code generate}, all kept across restarts), the Engine API methods with
 * {@code eth_sendRawTransaction} on the ingest executor, and one HTTP server: the JWT port, and
 * optionally the same API without JWT on {@code rpcPort}. What {@code Main} runs and what the tests start.
 */
public final class ExampleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);

    /**
     * Everything {@code Main}'s options say; {@code rpcPort} is {@code null} for no unauthenticated port;
     * {@code idleTimeout} is how long a connection may wait for a whole request while no response is
     * being written (zero: no limit). The bounds: {@code ingestThreads} for blocking methods,
     * {@code maxBlobsPerTx} per transaction, {@code maxBatchSize} requests per batch,
     * {@code maxResponseBytes} of replies per HTTP request, {@code maxPipelined} unwritten responses per
     * connection, {@code maxConnections} at once, {@code writeTimeout} without progress (zero: no limit).
     */
    public record Config(String host, int port, Integer rpcPort, Path secretFile, boolean generateSecretIfAbsent, Path dataDir,
            int generate, Path hashesOut, Fork fork, int maxBlobsPerRequest, int maxRequestBytes,
            int poolMaxBlobs, Duration idleTimeout,
            int ingestThreads, int maxBlobsPerTx, int maxBatchSize, long maxResponseBytes, int maxPipelined,
            int maxConnections, Duration writeTimeout) {
        public Config {
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idle timeout " + idleTimeout + " is negative");
            }
        }
    }

    /** Blocking calls that may wait for an ingest thread, per thread; more are answered "server busy". */
    static final int INGEST_QUEUE_PER_THREAD = 16;
    /** Threads that parse and dispatch request bodies over 64 KiB, off the event loops: half the cores. */
    static final int LARGE_REQUEST_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Large requests that may wait for such a thread; more are handled on their event loop. */
    static final int LARGE_REQUEST_QUEUE = 64;

    private final EngineServer http;
    private final boolean rpc;
    /** The ingest and large-request executors. */
    private final List<ExecutorService> executors;
    private final DurableBlobPool pool;
    private final JwtSecret secret;

    private ExampleServer(EngineServer http, boolean rpc, List<ExecutorService> executors, DurableBlobPool pool,
            JwtSecret secret) {
        this.http = http;
        this.rpc = rpc;
        this.executors = executors;
        this.pool = pool;
        this.secret = secret;
    }

    public static ExampleServer start(Config config) throws IOException, InterruptedException {
        return start(config, ResponseRenderer.streaming(new ResponseWriter()), Clock.systemUTC());
    }

    /** Starts with another response renderer (benchmarks) or clock (tests). */
    public static ExampleServer start(Config config, ResponseRenderer renderer, Clock clock)
            throws IOException, InterruptedException {
        Kzg.load();
        JwtSecret secret = loadSecret(config);
        DurableBlobPool pool = DurableBlobPool.open(config.dataDir(), config.poolMaxBlobs());
        int generated = pool.generatedItems();
        if (generated < config.generate()) {
            int missing = config.generate() - generated;
            long started = System.nanoTime();
            for (BlobEntry entry : BlobGenerator.generate(missing, new SecureRandom().nextLong())) {
                pool.add(PoolItem.generated(entry));
            }
            LOG.info("generated {} blobs with KZG commitments and proofs on {} cores in {} ms", missing,
                    Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1_000_000);
        }
        List<VersionedHash> hashes = pool.hashes();
        Files.writeString(config.hashesOut(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n", "", "\n")));

        ExecutorService ingest = BoundedExecutor.create("hexstream-ingest", config.ingestThreads(),
                config.ingestThreads() * INGEST_QUEUE_PER_THREAD);
        ExecutorService largeRequests = BoundedExecutor.create("hexstream-requests", LARGE_REQUEST_THREADS, LARGE_REQUEST_QUEUE);
        JsonRpcDispatcher dispatcher = new JsonRpcDispatcher(EngineMethods.all(pool, config.fork(), config.maxBlobsPerRequest(),
                new TransactionIngest(pool, config.maxBlobsPerTx())), new ResponseWriter(), ingest, config.maxResponseBytes());
        RequestParser parser = new RequestParser(config.maxRequestBytes(), config.maxBatchSize());
        EngineApiInitializer.Limits limits = new EngineApiInitializer.Limits(config.maxRequestBytes(), config.maxPipelined(),
                config.idleTimeout(), config.writeTimeout());
        RefusalLog refusals = new RefusalLog();
        List<EngineServer.Port> ports = new ArrayList<>(List.of(new EngineServer.Port(config.host(), config.port(),
                new EngineApiInitializer(new JwtAuthenticator(secret.bytes(), clock), parser, dispatcher, renderer, limits,
                        largeRequests, refusals))));
        if (config.rpcPort() != null) {
            ports.add(new EngineServer.Port(config.host(), config.rpcPort(),
                    new EngineApiInitializer(Authenticator.NONE, parser, dispatcher, renderer, limits, largeRequests, refusals)));
        }
        EngineServer http;
        try {
            http = EngineServer.start(ports, config.maxConnections(), refusals);
        } catch (InterruptedException | RuntimeException e) {
            ingest.shutdownNow();
            largeRequests.shutdownNow();
            throw e;
        }
        LOG.info("Engine API ({}) on http://{}:{}", config.fork().name().toLowerCase(),
                http.address(0).getHostString(), http.address(0).getPort());
        if (config.rpcPort() != null) {
            LOG.info("the same API without JWT on http://{}:{}", http.address(1).getHostString(), http.address(1).getPort());
        }
        LOG.info("JWT secret: {}", secret.path().toAbsolutePath());
        LOG.info("{} blobs in the pool, versioned hashes in {}:\n{}", hashes.size(),
                config.hashesOut().toAbsolutePath(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n")));
        return new ExampleServer(http, config.rpcPort() != null, List.of(ingest, largeRequests), pool, secret);
    }

    private static JwtSecret loadSecret(Config config) throws IOException {
        if (Files.exists(config.secretFile()) || !config.generateSecretIfAbsent()) {
            return JwtSecret.read(config.secretFile());
        }
        JwtSecret secret = JwtSecret.generate(config.secretFile());
        LOG.info("generated a JWT secret in {}", config.secretFile().toAbsolutePath());
        return secret;
    }

    public InetSocketAddress address() {
        return http.address(0);
    }

    /** The unauthenticated port's address, or {@code null} if there is none. */
    public InetSocketAddress rpcAddress() {
        return rpc ? http.address(1) : null;
    }

    public DurableBlobPool pool() {
        return pool;
    }

    public JwtSecret secret() {
        return secret;
    }

    public void awaitClose() throws InterruptedException {
        http.awaitClose();
    }

    @Override
    public void close() {
        http.close();
        executors.forEach(ExecutorService::shutdownNow);
    }
}
