package io.hexstream.server;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.http.EngineApiHandler;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.http.StreamingRenderer;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.BlobPool;
import io.hexstream.server.pool.VersionedHash;
import io.hexstream.server.rpc.EngineApi;
import io.hexstream.server.rpc.Fork;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.store.BlobStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The example server assembled: secret, durable pool (generated blobs topped up to {@code generate}
 * and reused across restarts), Engine API, HTTP. What {@code Main} runs and what the tests start.
 */
public final class ExampleServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExampleServer.class);

    /** Everything {@code Main}'s options say. */
    public record Config(String host, int port, Path secretFile, boolean generateSecretIfAbsent, Path dataDir,
            int generate, Path hashesOut, Fork fork, int maxBlobsPerRequest, int maxRequestBytes,
            int poolMaxBlobs) {}

    private final EngineServer http;
    private final BlobPool pool;
    private final JwtSecret secret;

    private ExampleServer(EngineServer http, BlobPool pool, JwtSecret secret) {
        this.http = http;
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
        for (BlobStore.Stored stored : store.loadAll()) {
            pool.add(stored.entry());
            generated += stored.origin() == BlobStore.Origin.GENERATED ? 1 : 0;
        }
        if (generated < config.generate()) {
            int missing = config.generate() - generated;
            long started = System.nanoTime();
            for (BlobEntry entry : BlobGenerator.generate(missing, new SecureRandom().nextLong())) {
                store.save(BlobStore.Origin.GENERATED, entry);
                pool.add(entry);
            }
            LOG.info("generated {} blobs with KZG commitments and proofs on {} cores in {} ms", missing,
                    Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1_000_000);
        }
        List<VersionedHash> hashes = pool.hashes();
        Files.writeString(config.hashesOut(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n", "", "\n")));

        EngineApi api = new EngineApi(pool, config.fork(), config.maxBlobsPerRequest());
        EngineApiHandler handler = new EngineApiHandler(new JwtAuthenticator(secret.bytes(), clock),
                new RequestParser(config.maxRequestBytes()), api, renderer);
        EngineServer http = EngineServer.start(config.host(), config.port(), config.maxRequestBytes(), handler);
        LOG.info("Engine API ({}) on http://{}:{}", config.fork().name().toLowerCase(),
                http.address().getHostString(), http.address().getPort());
        LOG.info("JWT secret: {}", secret.path().toAbsolutePath());
        LOG.info("{} blobs in the pool, versioned hashes in {}:\n{}", hashes.size(),
                config.hashesOut().toAbsolutePath(),
                hashes.stream().map(VersionedHash::toString).collect(Collectors.joining("\n")));
        return new ExampleServer(http, pool, secret);
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
        http.close();
    }
}
