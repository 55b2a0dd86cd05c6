package io.hexstream.server;

import io.hexstream.codec.Hex;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.engine.EngineMethods;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.RefusalLog;
import io.hexstream.server.http.RouteTable;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.Instrumentation;
import io.hexstream.server.metrics.MetricsEndpoint;
import io.hexstream.server.metrics.PrometheusMetrics;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.CellBackfill;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.pool.PoolListener;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.rpc.BoundedExecutor;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.JsonRpcRoute;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.ssz.SszRoute;
import io.hexstream.server.tx.TransactionIngest;
import io.netty.handler.codec.http.HttpMethod;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server assembled: KZG loaded, secret, durable pool (transactions' blobs and generated
 * blobs topped up to {@code generate}, all kept across restarts), the Engine API methods with
 * {@code eth_sendRawTransaction} on the ingest executor, and one HTTP server: the JWT port, and
 * optionally the same API without JWT on {@code rpcPort} and {@code GET /metrics} on {@code metricsPort}
 * (the request path given {@link ServerMetrics#NONE} without it). What {@code Main} runs and what the tests start.
 *
 * <p>Start-up, one named step each ({@link #open}): lock the data dir ({@code DataDirLock}), load KZG
 * and its trusted setup, read or generate the secret ({@code loadSecret}), load the stored pool
 * ({@code openPool}), bind the ports ({@code bind}), all quick, so that a taken port is found out at
 * once (the secret and the stored pool come before the bind because the handler checks every JWT with
 * the secret, and a transaction taken in while the store is still being read would be filed out of
 * order); then ({@link #topUp}) generate the missing blobs (the slow part, about 1.3 s a blob per core)
 * and write the hashes file ({@code writeHashes}), then start computing, in the background on the ingest
 * executor, the extension cells of the items loaded from older {@code HXB2} files ({@code CellBackfill}:
 * V1 to V3 serve them meanwhile). The server serves from the moment it is bound: during
 * generation the pool is live and growing, so a request is answered from the blobs pooled so far (a
 * missing blob is {@code null}, as for any blob not pooled) and a transaction is taken in as usual. Each
 * step that fails throws a {@link StartupException} naming what failed.
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
     * {@code metricsPort} serves {@code GET /metrics} on {@code metricsHost} ({@code null}: no metrics at
     * all); {@code accessLog} logs a line per response on the {@code hexstream.access} logger;
     * {@code convertV0Sidecars}: from Osaka on, an EIP-4844 transaction's blobs get cell proofs computed at
     * ingestion (off the event loop), so V2 and V3 serve them. {@code hexCacheMib} bounds the hex cache
     * (zero: no cache). Made by {@link #builder()}, which holds the defaults that {@code Main} shows.
     */
    public record Config(String host, int port, Integer rpcPort, Path secretFile, boolean generateSecretIfAbsent, Path dataDir,
            int generate, Path hashesOut, Fork fork, int maxBlobsPerRequest, int maxRequestBytes,
            int poolMaxBlobs, Duration idleTimeout,
            int ingestThreads, int maxBlobsPerTx, int maxBatchSize, long maxResponseBytes, int maxPipelined,
            int maxConnections, Duration writeTimeout, String metricsHost, Integer metricsPort, boolean accessLog,
            boolean convertV0Sidecars, int hexCacheMib) {
        public static final String DEFAULT_HOST = "127.0.0.1";
        /** Where {@code --metrics-port} listens unless {@code --metrics-host} says otherwise: this machine only. */
        public static final String DEFAULT_METRICS_HOST = "127.0.0.1";
        public static final int DEFAULT_PORT = 8551;
        public static final String DEFAULT_DATA_DIR = "hexstream-data";
        public static final int DEFAULT_GENERATE = 6;
        public static final String DEFAULT_FORK = "osaka";
        public static final int DEFAULT_MAX_BLOBS_PER_REQUEST = 128;
        public static final int DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;
        public static final int DEFAULT_POOL_MAX_BLOBS = 1024;
        public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 30;
        public static final int DEFAULT_INGEST_THREADS = 1;
        /** EIP-7594's {@code MAX_BLOBS_PER_TX}. */
        public static final int DEFAULT_MAX_BLOBS_PER_TX = 6;
        /** Besu's default batch limit. */
        public static final int DEFAULT_MAX_BATCH_SIZE = 1024;
        /** 256 MiB, near geth's 250 MB. */
        public static final long DEFAULT_MAX_RESPONSE_BYTES = 256L << 20;
        public static final int DEFAULT_MAX_PIPELINED = 16;
        public static final int DEFAULT_MAX_CONNECTIONS = 64;
        public static final int DEFAULT_WRITE_TIMEOUT_SECONDS = 60;
        /** geth's and erigon's behaviour after Osaka: v0 sidecars are converted. */
        public static final boolean DEFAULT_CONVERT_V0_SIDECARS = true;
        /**
         * 64 MiB of hex digits: 244 blobs with their cell proofs (274,432 bytes each), so a whole 128-blob
         * request and the newest slots' blobs (at most 21 a block under Osaka's BPO2) with room to spare,
         * for a quarter of what the default pool's 1,024 blobs would take encoded (268 MiB).
         */
        public static final int DEFAULT_HEX_CACHE_MIB = 64;
        /** The hashes file's name in the data dir, unless {@code hashesOut} says otherwise. */
        public static final String HASHES_FILE = "hashes.txt";

        public Config {
            if (idleTimeout.isNegative() || writeTimeout.isNegative()) {
                throw new IllegalArgumentException("idle timeout " + idleTimeout + " or write timeout " + writeTimeout
                        + " is negative");
            }
            if (generate < 0) {
                throw new IllegalArgumentException("generate " + generate + " is negative");
            }
            if (hexCacheMib < 0) {
                throw new IllegalArgumentException("hex cache " + hexCacheMib + " MiB is negative");
            }
        }

        /** A builder holding the defaults. */
        public static Builder builder() {
            return new Builder();
        }

        /** Starts from the defaults; the secret and the hashes file default to files in the data dir. */
        public static final class Builder {
            private String host = DEFAULT_HOST;
            private int port = DEFAULT_PORT;
            private Integer rpcPort;
            private Path jwtSecret;
            private Path dataDir = Path.of(DEFAULT_DATA_DIR);
            private int generate = DEFAULT_GENERATE;
            private Path hashesOut;
            private Fork fork = Fork.valueOf(DEFAULT_FORK.toUpperCase(Locale.ROOT));
            private int maxBlobsPerRequest = DEFAULT_MAX_BLOBS_PER_REQUEST;
            private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
            private int poolMaxBlobs = DEFAULT_POOL_MAX_BLOBS;
            private Duration idleTimeout = Duration.ofSeconds(DEFAULT_IDLE_TIMEOUT_SECONDS);
            private int ingestThreads = DEFAULT_INGEST_THREADS;
            private int maxBlobsPerTx = DEFAULT_MAX_BLOBS_PER_TX;
            private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
            private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
            private int maxPipelined = DEFAULT_MAX_PIPELINED;
            private int maxConnections = DEFAULT_MAX_CONNECTIONS;
            private Duration writeTimeout = Duration.ofSeconds(DEFAULT_WRITE_TIMEOUT_SECONDS);
            private String metricsHost = DEFAULT_METRICS_HOST;
            private Integer metricsPort;
            private int hexCacheMib = DEFAULT_HEX_CACHE_MIB;
            private boolean accessLog;
            private boolean convertV0Sidecars = DEFAULT_CONVERT_V0_SIDECARS;

            private Builder() {}

            public Builder host(String host) {
                this.host = host;
                return this;
            }

            /** Zero: any free port. */
            public Builder port(int port) {
                this.port = port;
                return this;
            }

            /** The port serving the same API without JWT; {@code null} (the default) for none, zero for any free one. */
            public Builder rpcPort(Integer rpcPort) {
                this.rpcPort = rpcPort;
                return this;
            }

            /** A secret file that must exist; {@code null} (the default): {@code DATA_DIR/jwt.hex}, generated if absent. */
            public Builder jwtSecret(Path jwtSecret) {
                this.jwtSecret = jwtSecret;
                return this;
            }

            public Builder dataDir(Path dataDir) {
                this.dataDir = dataDir;
                return this;
            }

            public Builder generate(int generate) {
                this.generate = generate;
                return this;
            }

            /** {@code null} (the default): {@code DATA_DIR/hashes.txt}. */
            public Builder hashesOut(Path hashesOut) {
                this.hashesOut = hashesOut;
                return this;
            }

            public Builder fork(Fork fork) {
                this.fork = fork;
                return this;
            }

            public Builder maxBlobsPerRequest(int maxBlobsPerRequest) {
                this.maxBlobsPerRequest = maxBlobsPerRequest;
                return this;
            }

            public Builder maxRequestBytes(int maxRequestBytes) {
                this.maxRequestBytes = maxRequestBytes;
                return this;
            }

            public Builder poolMaxBlobs(int poolMaxBlobs) {
                this.poolMaxBlobs = poolMaxBlobs;
                return this;
            }

            public Builder idleTimeout(Duration idleTimeout) {
                this.idleTimeout = idleTimeout;
                return this;
            }

            public Builder ingestThreads(int ingestThreads) {
                this.ingestThreads = ingestThreads;
                return this;
            }

            public Builder maxBlobsPerTx(int maxBlobsPerTx) {
                this.maxBlobsPerTx = maxBlobsPerTx;
                return this;
            }

            public Builder maxBatchSize(int maxBatchSize) {
                this.maxBatchSize = maxBatchSize;
                return this;
            }

            public Builder maxResponseBytes(long maxResponseBytes) {
                this.maxResponseBytes = maxResponseBytes;
                return this;
            }

            public Builder maxPipelined(int maxPipelined) {
                this.maxPipelined = maxPipelined;
                return this;
            }

            public Builder maxConnections(int maxConnections) {
                this.maxConnections = maxConnections;
                return this;
            }

            public Builder writeTimeout(Duration writeTimeout) {
                this.writeTimeout = writeTimeout;
                return this;
            }

            public Builder metricsHost(String metricsHost) {
                this.metricsHost = metricsHost;
                return this;
            }

            /** The port serving {@code GET /metrics}; {@code null} (the default) for no metrics, zero for any free port. */
            public Builder metricsPort(Integer metricsPort) {
                this.metricsPort = metricsPort;
                return this;
            }

            public Builder accessLog(boolean accessLog) {
                this.accessLog = accessLog;
                return this;
            }

            /** Whether EIP-4844 transactions get cell proofs computed at ingestion from Osaka on (the default). */
            public Builder convertV0Sidecars(boolean convertV0Sidecars) {
                this.convertV0Sidecars = convertV0Sidecars;
                return this;
            }

            /** The hex cache's bound in MiB; zero for no cache. */
            public Builder hexCacheMib(int hexCacheMib) {
                this.hexCacheMib = hexCacheMib;
                return this;
            }

            public Config build() {
                return new Config(host, port, rpcPort, jwtSecret != null ? jwtSecret : dataDir.resolve(JwtSecret.DEFAULT_FILE),
                        jwtSecret == null, dataDir, generate, hashesOut != null ? hashesOut : dataDir.resolve(HASHES_FILE),
                        fork, maxBlobsPerRequest, maxRequestBytes, poolMaxBlobs, idleTimeout, ingestThreads, maxBlobsPerTx,
                        maxBatchSize, maxResponseBytes, maxPipelined, maxConnections, writeTimeout, metricsHost, metricsPort,
                        accessLog, convertV0Sidecars, hexCacheMib);
            }
        }
    }

    /** Blocking calls that may wait for an ingest thread, per thread; more are answered "server busy". */
    static final int INGEST_QUEUE_PER_THREAD = 16;
    /** Threads that parse and dispatch request bodies over 64 KiB, off the event loops: half the cores. */
    static final int LARGE_REQUEST_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    /** Large requests that may wait for such a thread; more are handled on their event loop. */
    static final int LARGE_REQUEST_QUEUE = 64;

    private final Config config;
    private final DataDirLock lock;
    private final JwtSecret secret;
    private final DurableBlobPool pool;
    /** {@code null} when {@code --hex-cache-mib} is 0. */
    private final HexCache hexCache;
    private final int generatedAtOpen;
    /** The ingest and large-request executors. */
    private final List<ExecutorService> executors;
    /** The ingest executor: blocking work (KZG, fsync), bounded. */
    private final ExecutorService blockingWork;
    private final EngineServer http;

    private ExampleServer(Config config, DataDirLock lock, JwtSecret secret, DurableBlobPool pool, HexCache hexCache,
            List<ExecutorService> executors, ExecutorService blockingWork, EngineServer http) {
        this.config = config;
        this.lock = lock;
        this.secret = secret;
        this.pool = pool;
        this.hexCache = hexCache;
        this.generatedAtOpen = pool.generatedItems();
        this.executors = executors;
        this.blockingWork = blockingWork;
        this.http = http;
    }

    /** {@link #open} then {@link #topUp}: returns once the pool holds its generated blobs. */
    public static ExampleServer start(Config config) throws StartupException, InterruptedException {
        return start(config, ResponseRenderer::streaming, Clock.systemUTC());
    }

    /** As {@link #start(Config)} with another response renderer (benchmarks) or clock (tests). */
    public static ExampleServer start(Config config, ResponseRenderer renderer, Clock clock)
            throws StartupException, InterruptedException {
        return start(config, writer -> renderer, clock);
    }

    /**
     * As {@link #start(Config)} with the renderer {@code renderer} makes of the server's own writer
     * (the one that answers from the hex cache), e.g. {@code ResponseRenderer::streaming}.
     */
    public static ExampleServer start(Config config, Function<ResponseWriter, ResponseRenderer> renderer, Clock clock)
            throws StartupException, InterruptedException {
        return start(config, renderer, clock, Seams.SYSTEM);
    }

    /** As {@link #start(Config, Function, Clock)}, its blocking work done through {@code seams}. */
    public static ExampleServer start(Config config, Function<ResponseWriter, ResponseRenderer> renderer, Clock clock,
            Seams seams) throws StartupException, InterruptedException {
        ExampleServer server = open(config, renderer, clock, seams);
        try {
            server.topUp(() -> false);
        } catch (StartupException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * The quick start-up steps: locks the data dir, loads KZG, reads (or generates) the secret, loads
     * the stored pool and binds the ports; serving from then on. Undoes what it did if a step fails.
     */
    public static ExampleServer open(Config config, ResponseRenderer renderer, Clock clock)
            throws StartupException, InterruptedException {
        return open(config, writer -> renderer, clock);
    }

    /** As {@link #open(Config, ResponseRenderer, Clock)} with the renderer {@code renderer} makes of the server's writer. */
    public static ExampleServer open(Config config, Function<ResponseWriter, ResponseRenderer> renderer, Clock clock)
            throws StartupException, InterruptedException {
        return open(config, renderer, clock, Seams.SYSTEM);
    }

    /** As {@link #open(Config, Function, Clock)}, its blocking work done through {@code seams}. */
    public static ExampleServer open(Config config, Function<ResponseWriter, ResponseRenderer> renderer, Clock clock,
            Seams seams) throws StartupException, InterruptedException {
        DataDirLock lock = DataDirLock.acquire(config.dataDir());
        List<ExecutorService> executors = new ArrayList<>();
        HexCache hexCache = null;
        try {
            Kzg.load();
            JwtSecret secret = loadSecret(config);
            Instrumentation instrumentation = Instrumentation.of(config.metricsPort(), config.accessLog());
            ServerMetrics metrics = instrumentation.metrics();
            // Before the pool, so that it encodes the stored blobs as they load.
            hexCache = config.hexCacheMib() > 0 ? new HexCache((long) config.hexCacheMib() << 20) : null;
            DurableBlobPool pool = openPool(config, metrics, hexCache != null ? hexCache : PoolListener.NONE,
                    seams.storeFiles());
            ResponseWriter writer = new ResponseWriter();
            ThreadPoolExecutor ingest = BoundedExecutor.create("hexstream-ingest", config.ingestThreads(),
                    config.ingestThreads() * INGEST_QUEUE_PER_THREAD);
            executors.add(ingest);
            ExecutorService largeRequests = BoundedExecutor.create("hexstream-requests", LARGE_REQUEST_THREADS,
                    LARGE_REQUEST_QUEUE);
            executors.add(largeRequests);
            JsonRpcDispatcher dispatcher = new JsonRpcDispatcher(EngineMethods.all(pool, config.fork(),
                    config.maxBlobsPerRequest(), new TransactionIngest(pool, config.maxBlobsPerTx(),
                    config.convertV0Sidecars() && config.fork().atLeast(Fork.OSAKA), metrics, seams.ingestWork()),
                    metrics, hexCache),
                    ingest, config.maxResponseBytes(), metrics);
            ResponseRenderer responses = renderer.apply(writer);
            RequestParser parser = new RequestParser(config.maxRequestBytes(), config.maxBatchSize(), metrics);
            EngineApiInitializer.Limits limits = new EngineApiInitializer.Limits(config.maxRequestBytes(),
                    config.maxPipelined(), config.idleTimeout(), config.writeTimeout());
            RefusalLog refusals = new RefusalLog();
            JsonRpcRoute jsonRpc = new JsonRpcRoute(parser, dispatcher, responses, config.maxRequestBytes(), metrics);
            RouteTable engineApi = SszRoute.register(RouteTable.builder().add(HttpMethod.POST, "/", jsonRpc),
                    new BlobLookup(pool, metrics), config.fork(), config.maxBlobsPerRequest(), metrics).build();
            List<EngineServer.Port> ports = new ArrayList<>(List.of(new EngineServer.Port(config.host(), config.port(),
                    new EngineApiInitializer(engineApi, new JwtAuthenticator(secret.bytes(), clock), limits,
                            largeRequests, refusals, metrics))));
            if (config.rpcPort() != null) {
                RouteTable rpcOnly = RouteTable.builder().add(HttpMethod.POST, "/", jsonRpc).build();
                ports.add(new EngineServer.Port(config.host(), config.rpcPort(), new EngineApiInitializer(
                        rpcOnly, Authenticator.NONE, limits, largeRequests, refusals, metrics)));
            }
            PrometheusMetrics prometheus = instrumentation.prometheus();
            if (prometheus != null) {
                prometheus.gaugePool(pool::size, BlobSizes.BLOB_SIZE);
                prometheus.gaugeIngestQueue(() -> ingest.getQueue().size());
                if (hexCache != null) {
                    prometheus.gaugeHexCache(hexCache::bytes, hexCache::size);
                }
                ports.add(new EngineServer.Port(config.metricsHost(), config.metricsPort(), new MetricsEndpoint(prometheus),
                        false));
            }
            EngineServer http = bind(config, ports, refusals, metrics);
            LOG.info("Engine API ({}) on http://{}:{}; hex kernel {}", config.fork().name().toLowerCase(Locale.ROOT),
                    http.address(0).getHostString(), http.address(0).getPort(), kernel());
            if (config.rpcPort() != null) {
                LOG.info("the same API without JWT on http://{}:{}", http.address(1).getHostString(),
                        http.address(1).getPort());
            }
            if (prometheus != null) {
                InetSocketAddress scrape = http.address(ports.size() - 1);
                LOG.info("metrics on http://{}:{}{}", scrape.getHostString(), scrape.getPort(), MetricsEndpoint.PATH);
            }
            return new ExampleServer(config, lock, secret, pool, hexCache, executors, ingest, http);
        } catch (StartupException | InterruptedException | RuntimeException e) {
            executors.forEach(ExecutorService::shutdownNow);
            if (hexCache != null) {
                hexCache.close();
            }
            lock.close();
            throw e;
        }
    }

    /** The codec's kernel as the log names it, with the way to SIMD where it is not in use. */
    private static String kernel() {
        return switch (Hex.kernel()) {
            case VECTOR -> "VECTOR (SIMD lanes)";
            case PAIR_TABLE -> "PAIR_TABLE (portable; for SIMD lanes start with bin/hexstream-example-server,"
                    + " or java --add-modules jdk.incubator.vector)";
        };
    }

    /**
     * Reads {@code --jwt-secret}, or generates it (mode 600) if it is the default file and absent.
     *
     * @throws StartupException e.g. {@code --jwt-secret /x/jwt.hex: no such file}
     */
    static JwtSecret loadSecret(Config config) throws StartupException {
        Path file = config.secretFile();
        if (!config.generateSecretIfAbsent() || Files.exists(file)) {
            return readSecret(file);
        }
        try {
            JwtSecret secret = JwtSecret.generate(file);
            LOG.info("generated a JWT secret in {}", file.toAbsolutePath());
            return secret;
        } catch (IOException e) {
            throw new StartupException("--jwt-secret " + file + ": cannot create it: " + reason(e), e);
        }
    }

    /**
     * The secret in {@code file}.
     *
     * @throws StartupException {@code --jwt-secret FILE: no such file}, {@code not readable}, or what is
     *     wrong with its content ({@code is not 32 hex-encoded bytes (64 hex digits, 0x optional): got 63 digits})
     */
    static JwtSecret readSecret(Path file) throws StartupException {
        String option = "--jwt-secret " + file + ": ";
        try {
            return JwtSecret.read(file);
        } catch (NoSuchFileException e) {
            throw new StartupException(option + "no such file", e);
        } catch (AccessDeniedException e) {
            throw new StartupException(option + "not readable", e);
        } catch (IOException e) {
            throw new StartupException(option + reason(e), e);
        } catch (IllegalArgumentException e) {
            throw new StartupException(option + e.getMessage(), e);
        }
    }

    /** The durable pool with the stored items loaded, oldest first. */
    private static DurableBlobPool openPool(Config config, ServerMetrics metrics, PoolListener listener,
            StoreFiles files) throws StartupException {
        try {
            return DurableBlobPool.open(config.dataDir(), config.poolMaxBlobs(), metrics, listener, files);
        } catch (IOException e) {
            throw new StartupException("--data-dir " + config.dataDir() + ": cannot load the pool: " + reason(e), e);
        }
    }

    /**
     * Binds the ports, in order.
     *
     * @throws StartupException {@code port 8551 on 127.0.0.1 is in use}, {@code --host H: not an address
     *     of this machine}, ...
     */
    private static EngineServer bind(Config config, List<EngineServer.Port> ports, RefusalLog refusals,
            ServerMetrics metrics) throws StartupException, InterruptedException {
        try {
            return EngineServer.start(ports, config.maxConnections(), refusals, metrics);
        } catch (EngineServer.BindFailure failure) {
            boolean metricsPort = !failure.port().limited();
            String at = (metricsPort ? "--metrics-port " : "port ") + failure.port().port() + " on " + failure.port().host();
            String hostOption = metricsPort ? "--metrics-host " : "--host ";
            Throwable cause = failure.getCause();
            String why = String.valueOf(cause.getMessage());
            if (cause instanceof UnresolvedAddressException) { // a host name that does not resolve
                throw new StartupException(hostOption + failure.port().host() + ": unknown host", failure);
            }
            if (cause instanceof BindException && why.contains("in use")) {
                throw new StartupException(at + " is in use", failure);
            }
            if (cause instanceof BindException && why.contains("assign requested address")) {
                throw new StartupException(hostOption + failure.port().host() + ": not an address of this machine", failure);
            }
            throw new StartupException(at + ": " + (cause instanceof IOException io ? reason(io) : why), failure);
        }
    }

    /**
     * Generates the blobs missing from the {@code generate} that the pool should hold, one per core at a
     * time, each stored then pooled (requests meanwhile see the pool grow); stops early, between two
     * batches, once {@code stop} says so. Then writes the hashes file, and starts giving the items loaded
     * without extension cells ({@code HXB2} files) their cells in the background, one item at a time on
     * the ingest executor (after generation, which takes every core).
     */
    public void topUp(BooleanSupplier stop) throws StartupException {
        int missing = config.generate() - generatedAtOpen;
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
            LOG.info("generated {} blobs with KZG commitments and proofs on {} cores in {} ms", made, cores,
                    (System.nanoTime() - started) / 1_000_000);
        }
        writeHashes();
        CellBackfill.start(pool, blockingWork, Kzg::extensionCells);
    }

    private void storeGenerated(PoolItem item) throws StartupException {
        try {
            pool.add(item);
        } catch (IOException e) {
            throw new StartupException("--data-dir " + config.dataDir() + ": cannot store a generated blob: " + reason(e), e);
        }
    }

    /** Writes the pool's versioned hashes, one a line (an empty file for an empty pool), and says where. */
    private void writeHashes() throws StartupException {
        List<VersionedHash> hashes = pool.hashes();
        try {
            Files.writeString(config.hashesOut(), hashes.stream().map(hash -> hash + "\n").collect(Collectors.joining()));
        } catch (IOException e) {
            throw new StartupException("--hashes-out " + config.hashesOut() + ": cannot write it: " + reason(e), e);
        }
        LOG.info("{} blobs in the pool, versioned hashes in {}; JWT secret in {}", hashes.size(),
                config.hashesOut().toAbsolutePath(), secret.path().toAbsolutePath());
    }

    /** What went wrong, without the path that the message names already. */
    private static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    public InetSocketAddress address() {
        return http.address(0);
    }

    /** The unauthenticated port's address, or {@code null} if there is none. */
    public InetSocketAddress rpcAddress() {
        return config.rpcPort() != null ? http.address(1) : null;
    }

    /** The metrics port's address, or {@code null} if there is none. */
    public InetSocketAddress metricsAddress() {
        return config.metricsPort() != null ? http.address(config.rpcPort() != null ? 2 : 1) : null;
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
     * Stops serving (the responses in flight get up to 2 s), then releases the data dir. Idempotent.
     */
    @Override
    public void close() {
        http.close();
        executors.forEach(ExecutorService::shutdownNow);
        if (hexCache != null) {
            hexCache.close();
        }
        lock.close();
    }
}
