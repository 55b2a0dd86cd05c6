package io.hexstream.server.testing;

import io.hexstream.server.ExampleServer;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ResponseWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * An example server on a free loopback port, and a client of it. By default over a pool of
 * {@link #GENERATED} real-KZG blobs that are generated once into {@code target/test-blobs} and reused by
 * every test class and run (the server's own store does the caching); {@link #startEmpty} gives a
 * server over an empty pool of its own, with an unauthenticated port too. Close it to stop the server.
 */
public final class EngineServerFixture extends EngineClient implements AutoCloseable {
    public static final int GENERATED = 6;
    public static final String SECRET = "0x" + "42".repeat(32);
    private static final Path SHARED_DATA = Path.of("target", "test-blobs");
    private static final int MAX_REQUEST_BYTES = 16 << 20;
    /** The server's default, {@code Main}'s {@code --idle-timeout 30}. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** The limits of {@code Main}'s defaults that tests change: {@code --max-*}, {@code --ingest-threads}, timeouts. */
    public record Limits(int maxRequestBytes, int maxBatchSize, long maxResponseBytes, int maxPipelined,
            int maxConnections, int ingestThreads, Duration idleTimeout, Duration writeTimeout) {
        /** {@code Main}'s defaults. */
        public static final Limits DEFAULTS = new Limits(MAX_REQUEST_BYTES, 1024, 256L << 20, 16, 64, 1, IDLE_TIMEOUT,
                Duration.ofSeconds(60));

        public Limits withIdleTimeout(Duration timeout) {
            return new Limits(maxRequestBytes, maxBatchSize, maxResponseBytes, maxPipelined, maxConnections,
                    ingestThreads, timeout, writeTimeout);
        }

        public Limits withWriteTimeout(Duration timeout) {
            return new Limits(maxRequestBytes, maxBatchSize, maxResponseBytes, maxPipelined, maxConnections,
                    ingestThreads, idleTimeout, timeout);
        }

        public Limits withMaxConnections(int max) {
            return new Limits(maxRequestBytes, maxBatchSize, maxResponseBytes, maxPipelined, max, ingestThreads,
                    idleTimeout, writeTimeout);
        }

        /** A larger body and batch limit, e.g. for a 2,000-call batch. */
        public Limits withBatches(int requestBytes, int batchSize) {
            return new Limits(requestBytes, batchSize, maxResponseBytes, maxPipelined, maxConnections, ingestThreads,
                    idleTimeout, writeTimeout);
        }
    }

    private final ExampleServer server;
    private final Path dataDir;

    private EngineServerFixture(ExampleServer server, Clock clock, Path dataDir) {
        super(server.address().getPort(), new JwtAuthenticator(server.secret().bytes(), clock));
        this.server = server;
        this.dataDir = dataDir;
    }

    public static EngineServerFixture start(Fork fork) {
        return start(fork, Clock.systemUTC(), SHARED_DATA, 1024);
    }

    /** A server over {@code dataDir} (topped up to {@link #GENERATED} blobs), answering with {@code clock}'s time. */
    public static EngineServerFixture start(Fork fork, Clock clock, Path dataDir, int poolMaxBlobs) {
        return start(fork, clock, dataDir, GENERATED, poolMaxBlobs, null, Limits.DEFAULTS);
    }

    /** A server over the shared pool that closes connections waiting {@code idleTimeout} for a whole request. */
    public static EngineServerFixture start(Fork fork, Duration idleTimeout) {
        return start(fork, Limits.DEFAULTS.withIdleTimeout(idleTimeout));
    }

    /** A server over the shared pool with {@code limits}. */
    public static EngineServerFixture start(Fork fork, Limits limits) {
        return start(fork, Clock.systemUTC(), SHARED_DATA, GENERATED, 1024, null, limits);
    }

    /** A server over {@code dataDir} with no generated blobs, and the same API without JWT on another port. */
    public static EngineServerFixture startEmpty(Fork fork, Path dataDir) {
        return start(fork, Clock.systemUTC(), dataDir, 0, 1024, 0, Limits.DEFAULTS);
    }

    private static EngineServerFixture start(Fork fork, Clock clock, Path dataDir, int generate, int poolMaxBlobs,
            Integer rpcPort, Limits limits) {
        try {
            Files.createDirectories(dataDir);
            Path scratch = Files.createTempDirectory("hexstream-test");
            Path secret = Files.writeString(scratch.resolve("jwt.hex"), SECRET);
            ExampleServer server = ExampleServer.start(new ExampleServer.Config("127.0.0.1", 0, rpcPort, secret, false,
                    dataDir, generate, scratch.resolve("hashes.txt"), fork, 128, limits.maxRequestBytes(), poolMaxBlobs,
                    limits.idleTimeout(), limits.ingestThreads(), 6, limits.maxBatchSize(), limits.maxResponseBytes(),
                    limits.maxPipelined(), limits.maxConnections(), limits.writeTimeout()),
                    ResponseRenderer.streaming(new ResponseWriter()), clock);
            return new EngineServerFixture(server, clock, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Copies the shared pool's {@link #GENERATED} blobs (generating them first if need be) into
     * {@code dataDir}'s store, for a server in its own JVM ({@link ServerProcess}); returns their
     * versioned hashes in pool order.
     */
    public static List<VersionedHash> copySharedPool(Path dataDir) throws IOException {
        List<VersionedHash> hashes;
        try (EngineServerFixture shared = start(Fork.OSAKA)) {
            hashes = shared.hashes();
        }
        Path blobs = Files.createDirectories(dataDir.resolve("blobs"));
        try (Stream<Path> files = Files.list(SHARED_DATA.resolve("blobs"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, blobs.resolve(file.getFileName()));
            }
        }
        return hashes;
    }

    public ExampleServer server() {
        return server;
    }

    /** The server's port (JWT required). */
    public int port() {
        return server.address().getPort();
    }

    public List<VersionedHash> hashes() {
        return server.pool().hashes();
    }

    /** {@code n} versioned hashes cycling through the pool's: how tests ask for 128 blobs from a few. */
    public List<VersionedHash> cycledHashes(int n) {
        List<VersionedHash> hashes = hashes();
        List<VersionedHash> cycled = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            cycled.add(hashes.get(i % hashes.size()));
        }
        return cycled;
    }

    /** A client of the unauthenticated port ({@link #startEmpty} servers only). */
    public EngineClient withoutJwt() {
        return new EngineClient(server.rpcAddress().getPort(), null);
    }

    /**
     * What the pool holds, in memory and on disk: item keys, versioned hashes, file names, in order.
     * Equal before and after a request that changed nothing.
     */
    public List<List<String>> poolState() {
        return poolState(server.pool(), dataDir);
    }

    /** {@link #poolState()} of {@code pool} stored under {@code dataDir}. */
    public static List<List<String>> poolState(DurableBlobPool pool, Path dataDir) {
        try (Stream<Path> files = Files.list(dataDir.resolve("blobs"))) {
            return List.of(pool.itemKeys(), pool.hashes().stream().map(VersionedHash::toString).toList(),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
