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
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server assembled: secret, durable pool (transactions' blobs and generated blobs topped
 * up to {@code generate}, all kept across restarts), Engine API with {@code eth_sendRawTransaction},
 * HTTP with JWT, and optionally the same API without JWT on {@code rpcPort}. What {@code Main} runs and
 * what the tests start.
 */
public final class ExampleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);

    /**
     * Everything {@code Main}'s options say; {@code rpcPort} is {@code null} for no unauthenticated port;
     * {@code idleTimeout} is how long a connection may wait for a whole request while no response is
     * being written (zero: no limit).
     */
    public record Config(String host, int port, Integer rpcPort, Path secretFile, boolean generateSecretIfAbsent, Path dataDir,
            int generate, Path hashesOut, Fork fork, int maxBlobsPerRequest, int maxRequestBytes,
            int poolMaxBlobs, Duration idleTimeout) {
        public Config {
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idle timeout " + idleTimeout + " is negative");
            }
        }
    }

    private final EngineServer http;
    private final EngineServer rpc;
    private final BlobPool pool;
    private final JwtSecret secret;

    private ExampleServer(EngineServer http, EngineServer rpc, BlobPool pool, JwtSecret secret) {
        this.http = http;
        this.rpc = rpc;
        this.pool = pool;
        this.secret = secret;
    }

    public static ExampleServer start(Config config) throws IOException, InterruptedException {
        return start(config, new StreamingRenderer(), Clock.systemUTC());
    }

    /** Starts with another response renderer (benchmarks) or clock (tests). */
    public static ExampleServer start(Config config, ResponseRenderer renderer, Clock clock)
            throws IOException, InterruptedException {
        JwtSecret secret = loadSecret(config);
        BlobStore store = new BlobStore(config.dataDir());
        BlobPool pool = new BlobPool(config.poolMaxBlobs(), store::delete);
        int generated = 0;
        for (PoolItem item : store.loadAll()) {
            pool.add(item);
            generated += item.isTransaction() ? 0 : 1;
        }
        if (generated < config.generate()) {
            int missing = config.generate() - generated;
            long started = System.nanoTime();
            for (BlobEntry entry : BlobGenerator.generate(missing, new SecureRandom().nextLong())) {
                PoolItem item = PoolItem.generated(entry);
                store.save(item);
                pool.add(item);
            }
            LOG.info("generated {} blobs with KZG commitments and proofs on {} cores in {} ms", missing,
                    Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1_000_000);
        }
        List<VersionedHash> hashes = pool.hashes();
        Files.writeString(config.hashesOut(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n", "", "\n")));

        EngineApi api = new EngineApi(pool, config.fork(), config.maxBlobsPerRequest(),
                Map.of(SendRawTransaction.NAME, new SendRawTransaction(new TransactionIngest(pool, store))));
        RequestParser parser = new RequestParser(config.maxRequestBytes());
        EngineServer http = EngineServer.start(config.host(), config.port(), config.maxRequestBytes(), config.idleTimeout(),
                new EngineApiHandler(new JwtAuthenticator(secret.bytes(), clock), parser, api, renderer));
        LOG.info("Engine API ({}) on http://{}:{}", config.fork().name().toLowerCase(),
                http.address().getHostString(), http.address().getPort());
        EngineServer rpc = null;
        if (config.rpcPort() != null) {
            try {
                rpc = EngineServer.start(config.host(), config.rpcPort(), config.maxRequestBytes(), config.idleTimeout(),
                        new EngineApiHandler(Authenticator.NONE, parser, api, renderer));
            } catch (InterruptedException | RuntimeException e) {
                http.close();
                throw e;
            }
            LOG.info("the same API without JWT on http://{}:{}", rpc.address().getHostString(), rpc.address().getPort());
        }
        LOG.info("JWT secret: {}", secret.path().toAbsolutePath());
        LOG.info("{} blobs in the pool, versioned hashes in {}:\n{}", hashes.size(),
                config.hashesOut().toAbsolutePath(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n")));
        return new ExampleServer(http, rpc, pool, secret);
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

    public void awaitClose() throws InterruptedException {
        http.awaitClose();
    }

    @Override
    public void close() {
        if (rpc != null) {
            rpc.close();
        }
        http.close();
    }
}
