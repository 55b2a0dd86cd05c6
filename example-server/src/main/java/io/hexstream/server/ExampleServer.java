package io.hexstream.server;

import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.http.EngineApiHandler;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.http.StreamingRenderer;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.BlobPool;
import io.hexstream.server.pool.PoolItem;
import io.hexstream.server.pool.VersionedHash;
import io.hexstream.server.rpc.EngineApi;
import io.hexstream.server.rpc.Fork;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.SendRawTransaction;
import io.hexstream.server.store.BlobStore;
import io.hexstream.server.tx.TransactionIngest;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server assembled: secret, durable pool (transactions' blobs and generated blobs topped
 * up to {@code generate}, all kept across restarts), Engine API with {@code eth_sendRawTransaction},
 * HTTP with JWT, and optionally the same API without JWT on {@code rpcPort}. What {@code Main} runs and
 * what the tests start.
 *
 * <p>Start-up, one named step each ({@link #open}): lock the data dir ({@code DataDirLock}), read or
 * generate the secret ({@code loadSecret}), load the stored pool ({@code openPool}), bind the ports
 * ({@code bind}), all quick, so that a taken port is found out at once (the secret and the stored pool
 * come before the bind because the handler checks every JWT with the secret, and a transaction taken in
 * while the store is still being read would be filed out of order); then ({@link #topUp}) generate
 * the missing blobs (the slow part, about 1.3 s a blob per core) and write the hashes file
 * ({@code writeHashes}). The server serves from the moment it is bound: during generation the pool is
 * live and growing, so a request is answered from the blobs pooled so far (a missing blob is
 * {@code null}, as for any blob not pooled) and a transaction is taken in as usual. Each step that fails
 * throws a {@link StartupException} naming what failed.
 */
public final class ExampleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);

    /**
     * Everything {@code Main}'s options say; {@code rpcPort} is {@code null} for no unauthenticated port;
     * {@code idleTimeout} is how long a connection may wait for a whole request while no response is
     * being written (zero: no limit). Made by {@link #builder()}, which holds the defaults that
     * {@code Main} shows.
     */
    public record Config(String host, int port, Integer rpcPort, Path secretFile, boolean generateSecretIfAbsent, Path dataDir,
            int generate, Path hashesOut, Fork fork, int maxBlobsPerRequest, int maxRequestBytes,
            int poolMaxBlobs, Duration idleTimeout) {
        public static final String DEFAULT_HOST = "127.0.0.1";
        public static final int DEFAULT_PORT = 8551;
        public static final String DEFAULT_DATA_DIR = "hexstream-data";
        public static final int DEFAULT_GENERATE = 6;
        public static final String DEFAULT_FORK = "osaka";
        public static final int DEFAULT_MAX_BLOBS_PER_REQUEST = 128;
        public static final int DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;
        public static final int DEFAULT_POOL_MAX_BLOBS = 1024;
        public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 30;
        /** The hashes file's name in the data dir, unless {@code hashesOut} says otherwise. */
        public static final String HASHES_FILE = "hashes.txt";

        public Config {
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idle timeout " + idleTimeout + " is negative");
            }
            if (generate < 0) {
                throw new IllegalArgumentException("generate " + generate + " is negative");
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

            public Config build() {
                return new Config(host, port, rpcPort, jwtSecret != null ? jwtSecret : dataDir.resolve(JwtSecret.DEFAULT_FILE),
                        jwtSecret == null, dataDir, generate, hashesOut != null ? hashesOut : dataDir.resolve(HASHES_FILE),
                        fork, maxBlobsPerRequest, maxRequestBytes, poolMaxBlobs, idleTimeout);
            }
        }
    }

    private final Config config;
    private final DataDirLock lock;
    private final JwtSecret secret;
    private final BlobStore store;
    private final BlobPool pool;
    private final int generatedAtOpen;
    private final EngineServer http;
    private final EngineServer rpc;

    private ExampleServer(Config config, DataDirLock lock, JwtSecret secret, LoadedPool loaded, EngineServer http,
            EngineServer rpc) {
        this.config = config;
        this.lock = lock;
        this.secret = secret;
        this.store = loaded.store();
        this.pool = loaded.pool();
        this.generatedAtOpen = loaded.generated();
        this.http = http;
        this.rpc = rpc;
    }

    /** {@link #open} then {@link #topUp}: returns once the pool holds its generated blobs. */
    public static ExampleServer start(Config config) throws StartupException, InterruptedException {
        return start(config, new StreamingRenderer(), Clock.systemUTC());
    }

    /** As {@link #start(Config)} with another response renderer (benchmarks) or clock (tests). */
    public static ExampleServer start(Config config, ResponseRenderer renderer, Clock clock)
            throws StartupException, InterruptedException {
        ExampleServer server = open(config, renderer, clock);
        try {
            server.topUp(() -> false);
        } catch (StartupException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    /**
     * The quick start-up steps: locks the data dir, reads (or generates) the secret, loads the stored
     * pool and binds the ports; serving from then on. Undoes what it did if a step fails.
     */
    public static ExampleServer open(Config config, ResponseRenderer renderer, Clock clock)
            throws StartupException, InterruptedException {
        DataDirLock lock = DataDirLock.acquire(config.dataDir());
        EngineServer http = null;
        try {
            JwtSecret secret = loadSecret(config);
            LoadedPool loaded = openPool(config);
            EngineApi api = new EngineApi(loaded.pool(), config.fork(), config.maxBlobsPerRequest(),
                    Map.of(SendRawTransaction.NAME, new SendRawTransaction(new TransactionIngest(loaded.pool(), loaded.store()))));
            RequestParser parser = new RequestParser(config.maxRequestBytes());
            http = bind(config, config.port(),
                    new EngineApiHandler(new JwtAuthenticator(secret.bytes(), clock), parser, api, renderer));
            LOG.info("Engine API ({}) on http://{}:{}", config.fork().name().toLowerCase(Locale.ROOT),
                    http.address().getHostString(), http.address().getPort());
            EngineServer rpc = null;
            if (config.rpcPort() != null) {
                rpc = bind(config, config.rpcPort(), new EngineApiHandler(Authenticator.NONE, parser, api, renderer));
                LOG.info("the same API without JWT on http://{}:{}", rpc.address().getHostString(), rpc.address().getPort());
            }
            return new ExampleServer(config, lock, secret, loaded, http, rpc);
        } catch (StartupException | InterruptedException | RuntimeException e) {
            if (http != null) {
                http.close();
            }
            lock.close();
            throw e;
        }
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

    /** The store, the pool over it, and how many of the items loaded are generated blobs. */
    private record LoadedPool(BlobStore store, BlobPool pool, int generated) {}

    /** Loads the stored items into a new pool, oldest first. */
    private static LoadedPool openPool(Config config) throws StartupException {
        try {
            BlobStore store = new BlobStore(config.dataDir());
            BlobPool pool = new BlobPool(config.poolMaxBlobs(), store::delete);
            int generated = 0;
            for (PoolItem item : store.loadAll()) {
                pool.add(item);
                generated += item.isTransaction() ? 0 : 1;
            }
            return new LoadedPool(store, pool, generated);
        } catch (IOException e) {
            throw new StartupException("--data-dir " + config.dataDir() + ": cannot load the pool: " + reason(e), e);
        }
    }

    /**
     * Binds {@code port} on {@code config.host()}.
     *
     * @throws StartupException {@code port 8551 on 127.0.0.1 is in use}, {@code --host H: not an address
     *     of this machine}, ...
     */
    private static EngineServer bind(Config config, int port, EngineApiHandler handler)
            throws StartupException, InterruptedException {
        String host = config.host();
        try {
            return EngineServer.start(host, port, config.maxRequestBytes(), config.idleTimeout(), handler);
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage());
            if (why.contains("in use")) {
                throw new StartupException("port " + port + " on " + host + " is in use", e);
            }
            if (why.contains("assign requested address")) {
                throw new StartupException("--host " + host + ": not an address of this machine", e);
            }
            throw new StartupException("port " + port + " on " + host + ": " + why, e);
        } catch (IOException e) {
            throw new StartupException("port " + port + " on " + host + ": " + reason(e), e);
        } catch (UnresolvedAddressException e) { // a host name that does not resolve
            throw new StartupException("--host " + host + ": unknown host", e);
        }
    }

    /**
     * Generates the blobs missing from the {@code generate} that the pool should hold, one per core at a
     * time, each stored then pooled (requests meanwhile see the pool grow); stops early, between two
     * batches, once {@code stop} says so. Then writes the hashes file.
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
    }

    private void storeGenerated(PoolItem item) throws StartupException {
        try {
            store.save(item);
        } catch (IOException e) {
            throw new StartupException("--data-dir " + config.dataDir() + ": cannot store a generated blob: " + reason(e), e);
        }
        pool.add(item);
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
        return http.address();
    }

    /** The unauthenticated port's address, or {@code null} if there is none. */
    public InetSocketAddress rpcAddress() {
        return rpc == null ? null : rpc.address();
    }

    public BlobPool pool() {
        return pool;
    }

    public JwtSecret secret() {
        return secret;
    }

    /**
     * Stops serving (the responses in flight get up to 2 s), then releases the data dir. Idempotent.
     */
    @Override
    public void close() {
        if (rpc != null) {
            rpc.close();
        }
        http.close();
        lock.close();
    }
}
