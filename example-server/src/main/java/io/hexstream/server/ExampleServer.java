package io.hexstream.server;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.pool.CellBackfill;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server running: KZG loaded, secret, durable pool (transactions' blobs and generated blobs topped up to
 * {@code --generate}, all kept across restarts), the Engine API methods with {@code eth_sendRawTransaction} on the
 * ingest executor, and one HTTP server: the JWT port, and optionally {@code eth_sendRawTransaction} without JWT on
 * {@code --rpc-port} and {@code GET /metrics} on {@code --metrics-port}. What {@code Main} runs and what the tests and
 * benchmarks start, each from {@link ServerOptions} through {@link #builder}.
 *
 * <p>{@link Builder#open} runs the quick {@link Startup} steps; the server serves from then on. Then {@link #topUp}
 * generates the missing blobs (the slow part, about 1.3 s a blob per core), writes the hashes file, then starts
 * computing, in the background on the ingest executor, the extension cells of the items loaded from older {@code HXB2}
 * files ({@link CellBackfill}: V1 to V3 serve them meanwhile). During generation the pool is live and growing, so a
 * request is answered from the blobs pooled so far (a missing blob is {@code null}, as for any blob not pooled) and a
 * transaction is taken in as usual.
 */
public final class ExampleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);
    /** How often {@link #close} says it is still waiting for the work in progress. */
    private static final long STOP_LOG_SECONDS = 5;

    private final ServerOptions options;
    private final DataDirLock lock;
    private final JwtSecret secret;
    private final DurableBlobPool pool;
    /** {@code null} when {@code --hex-cache-mib} is 0. */
    private final HexCache hexCache;

    private final int generatedAtOpen;
    /** The ingest, large-request and scrape executors. */
    private final List<ExecutorService> executors;
    /** The ingest executor: blocking work (KZG, fsync), bounded. */
    private final ExecutorService blockingWork;

    private final ListeningPorts ports;

    ExampleServer(
            ServerOptions options,
            DataDirLock lock,
            JwtSecret secret,
            DurableBlobPool pool,
            HexCache hexCache,
            List<ExecutorService> executors,
            ExecutorService blockingWork,
            ListeningPorts ports) {
        this.options = options;
        this.lock = lock;
        this.secret = secret;
        this.pool = pool;
        this.hexCache = hexCache;
        this.generatedAtOpen = pool.generatedItems();
        this.executors = executors;
        this.blockingWork = blockingWork;
        this.ports = ports;
    }

    /** A server of {@code options}, answering with the system clock's time and the streaming renderer. */
    public static Builder builder(ServerOptions options) {
        return new Builder(options);
    }

    /** What a server is made of besides its options: the clock its JWT checks use, and its renderer. */
    public static final class Builder {
        private final ServerOptions options;
        private Clock clock = Clock.systemUTC();
        private Function<ResponseWriter, ResponseRenderer> renderer = ResponseRenderer::streaming;
        private Seams seams = Seams.SYSTEM;

        private Builder(ServerOptions options) {
            this.options = options;
        }

        /** The time a JWT's {@code iat} is checked against. */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * The renderer {@code renderer} makes of the server's own writer (the one that answers from the hex cache);
         * {@code ResponseRenderer::streaming} unless set (the benchmarks plug in their peers here).
         */
        public Builder renderer(Function<ResponseWriter, ResponseRenderer> renderer) {
            this.renderer = renderer;
            return this;
        }

        /**
         * Where the blocking work meets the platform: the store's file operations and the ingest's costly steps;
         * {@link Seams#SYSTEM} unless set (tests record or fail them here).
         */
        public Builder seams(Seams seams) {
            this.seams = seams;
            return this;
        }

        /**
         * The quick start-up steps ({@link Startup}): locks the data dir, loads KZG, reads (or generates) the secret,
         * loads the stored pool and binds the ports; serving from then on. Undoes what it did if a step fails.
         */
        public ExampleServer open() throws StartupException, InterruptedException {
            return Startup.open(options, renderer, clock, seams);
        }

        /** {@link #open} then {@link ExampleServer#topUp}: returns once the pool holds its generated blobs. */
        public ExampleServer start() throws StartupException, InterruptedException {
            ExampleServer server = open();
            try {
                server.topUp(() -> false);
            } catch (StartupException | RuntimeException e) {
                server.close();
                throw e;
            }
            return server;
        }
    }

    /**
     * Generates the blobs missing from the {@code --generate} that the pool should hold, one per core at a time, each
     * stored then pooled (requests meanwhile see the pool grow); stops early, between two batches, once {@code stop}
     * says so. Then writes the hashes file, and starts giving the items loaded without extension cells ({@code HXB2}
     * files) their cells in the background, one item at a time on the ingest executor (after generation, which takes
     * every core).
     */
    public void topUp(BooleanSupplier stop) throws StartupException {
        int missing = options.generate - generatedAtOpen;
        if (missing > 0) {
            long started = System.nanoTime();
            int cores = Runtime.getRuntime().availableProcessors();
            Random seeds = new SecureRandom();
            int made = 0;
            while (made < missing && !stop.getAsBoolean()) {
                int batch = Math.min(cores, missing - made);
                for (BlobEntry entry : BlobGenerator.generate(batch, seeds.nextLong())) {
                    storeGenerated(PoolItem.generated(entry));
                }
                made += batch;
            }
            LOG.info(
                    "generated {} blobs with KZG commitments and proofs on {} cores in {} ms",
                    made,
                    cores,
                    (System.nanoTime() - started) / 1_000_000);
        }
        writeHashes();
        CellBackfill.start(pool, blockingWork, Kzg::extensionCells);
    }

    private void storeGenerated(PoolItem item) throws StartupException {
        try {
            pool.add(item);
        } catch (IOException e) {
            throw new StartupException(
                    "--data-dir " + options.dataDir() + ": cannot store a generated blob: " + StartupErrors.reason(e),
                    e);
        }
    }

    /**
     * Writes the pool's versioned hashes, one a line (an empty file for an empty pool), and says where. The file is
     * written under a temporary name beside it and renamed over it, so that a reader waiting for it (the README's "Try
     * it") sees the whole list or the previous one, never a part.
     */
    private void writeHashes() throws StartupException {
        List<VersionedHash> hashes = pool.hashes();
        Path file = options.hashesFile();
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(
                    temporary, hashes.stream().map(hash -> hash + "\n").collect(Collectors.joining()));
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StartupException(
                    "--hashes-out " + options.hashesFile() + ": cannot write it: " + StartupErrors.reason(e), e);
        }
        LOG.info(
                "{} blobs in the pool, versioned hashes in {}; JWT secret in {}",
                hashes.size(),
                options.hashesFile().toAbsolutePath(),
                secret.path().toAbsolutePath());
    }

    /** The Engine API port's address (JWT required). */
    public InetSocketAddress engineAddress() {
        return ports.address(ports.engine());
    }

    /** The unauthenticated port's address, or {@code null} if there is none. */
    public InetSocketAddress rpcAddress() {
        return ports.address(ports.rpc());
    }

    /** The metrics port's address, or {@code null} if there is none. */
    public InetSocketAddress metricsAddress() {
        return ports.address(ports.metrics());
    }

    /** The IPC socket's path, or {@code null} if there is none. */
    public Path ipcPath() {
        return ports.ipc() != null ? ports.ipc().path() : null;
    }

    public DurableBlobPool pool() {
        return pool;
    }

    /** The hex cache, or {@code null} when {@code --hex-cache-mib} is 0. */
    public HexCache hexCache() {
        return hexCache;
    }

    public JwtSecret secret() {
        return secret;
    }

    /**
     * Stops serving (the responses in flight get up to 2 s), then waits for the executors to end: the work running ends
     * as it would (a transaction being written is written whole), the calls and requests still queued are not made and
     * release what they hold, the backfill stops after the item it has queued. Only then are the hex cache and the data
     * dir released, so that no writer outlives the lock. Idempotent.
     */
    @Override
    public void close() {
        ports.close();
        executors.forEach(ExecutorService::shutdown);
        executors.forEach(ExampleServer::awaitEnd);
        if (hexCache != null) {
            hexCache.close();
        }
        lock.close();
    }

    /** Waits, uninterruptibly, until {@code executor} has ended (logging every few seconds while it has not). */
    private static void awaitEnd(ExecutorService executor) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    if (executor.awaitTermination(STOP_LOG_SECONDS, TimeUnit.SECONDS)) {
                        return;
                    }
                    LOG.info("stopping: waiting for the work in progress to end (KZG, a transaction being written)");
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
