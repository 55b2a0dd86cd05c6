package io.hexstream.server.testing;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.Seams;
import io.hexstream.server.ServerOptions;
import io.hexstream.server.StartupException;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * An example server on a free loopback port, and a client of it. By default over a pool of {@link #GENERATED} real-KZG
 * blobs that are generated once into {@code target/test-blobs} and reused by every test class and run, each server over
 * a copy of its own (a data dir is locked by the server using it); {@link #startEmpty} gives a server over an empty
 * pool of its own, with an unauthenticated port too. Close it to stop the server.
 */
public final class EngineServerFixture extends EngineClient implements AutoCloseable {
    public static final int GENERATED = 6;
    public static final String SECRET = "0x" + "42".repeat(32);
    private static final Path SHARED_DATA = ForkDirectories.of("test-blobs");
    private static final Path SCRATCH = Path.of("target", "test-servers");
    private static List<VersionedHash> sharedHashes;

    private final ExampleServer server;
    private final Path dataDir;
    /** The directory of its secret and hashes file (and data, over a copy of the shared pool), deleted on close. */
    private final Path scratch;

    private EngineServerFixture(ExampleServer server, Clock clock, Path dataDir, Path scratch) {
        super(
                server.engineAddress().getPort(),
                new JwtAuthenticator(server.secret().bytes(), clock));
        this.server = server;
        this.dataDir = dataDir;
        this.scratch = scratch;
    }

    /** A server over a copy of the shared pool. */
    public static EngineServerFixture start(Fork fork) {
        return start(fork, Clock.systemUTC());
    }

    /** A server over a copy of the shared pool, answering with {@code clock}'s time. */
    public static EngineServerFixture start(Fork fork, Clock clock) {
        return startOverSharedPool(fork, clock, List.of());
    }

    /** A server over {@code dataDir}, topped up to {@link #GENERATED} blobs. */
    public static EngineServerFixture start(Fork fork, Path dataDir) {
        return start(fork, dataDir, Seams.SYSTEM);
    }

    /** As {@link #start(Fork, Path)}, its blocking work done through {@code seams}. */
    public static EngineServerFixture start(Fork fork, Path dataDir, Seams seams) {
        return start(
                dataDir,
                List.of("--fork", fork.name(), "--generate", Integer.toString(GENERATED)),
                Clock.systemUTC(),
                scratch(),
                seams);
    }

    /**
     * A server over a copy of the shared pool with the command-line {@code options} ({@code Main}'s defaults
     * otherwise), e.g. {@code "--max-connections", "2"}.
     */
    public static EngineServerFixture start(Fork fork, String... options) {
        return startOverSharedPool(fork, Clock.systemUTC(), List.of(options));
    }

    /**
     * A server over a copy of the shared pool that closes connections waiting {@code idleTimeout} for a whole request.
     */
    public static EngineServerFixture start(Fork fork, Duration idleTimeout) {
        return start(fork, "--idle-timeout", Long.toString(idleTimeout.toSeconds()));
    }

    /** A server over {@code dataDir} with no generated blobs, and {@code eth_sendRawTransaction} without JWT too. */
    public static EngineServerFixture startEmpty(Fork fork, Path dataDir) {
        return startEmpty(fork, dataDir, new String[0]);
    }

    /** As {@link #startEmpty(Fork, Path)}, with the command-line {@code options}. */
    public static EngineServerFixture startEmpty(Fork fork, Path dataDir, String... options) {
        List<String> args = new ArrayList<>(List.of("--fork", fork.name(), "--generate", "0", "--rpc-port", "0"));
        args.addAll(List.of(options));
        return start(dataDir, args, Clock.systemUTC(), scratch(), Seams.SYSTEM);
    }

    /** As {@link #startEmpty(Fork, Path, String...)}, its blocking work done through {@code seams}. */
    public static EngineServerFixture startEmpty(Fork fork, Path dataDir, Seams seams, String... options) {
        List<String> args = new ArrayList<>(List.of("--fork", fork.name(), "--generate", "0", "--rpc-port", "0"));
        args.addAll(List.of(options));
        return start(dataDir, args, Clock.systemUTC(), scratch(), seams);
    }

    private static EngineServerFixture startOverSharedPool(Fork fork, Clock clock, List<String> options) {
        Path scratch = scratch();
        copySharedPool(scratch.resolve("data"));
        List<String> args = new ArrayList<>(List.of("--fork", fork.name()));
        args.addAll(options);
        return start(scratch.resolve("data"), args, clock, scratch, Seams.SYSTEM);
    }

    /**
     * Starts over {@code dataDir} with the command-line {@code options} on a free loopback port with the secret
     * {@link #SECRET} and the hashes file in {@code scratch}, which {@link #close()} deletes.
     */
    private static EngineServerFixture start(
            Path dataDir, List<String> options, Clock clock, Path scratch, Seams seams) {
        try {
            ExampleServer server = ExampleServer.builder(options(dataDir, scratch, options.toArray(String[]::new)))
                    .clock(clock)
                    .seams(seams)
                    .start();
            return new EngineServerFixture(server, clock, dataDir, scratch);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (StartupException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The options of a server over {@code dataDir} on a free loopback port, with the secret {@link #SECRET} and the
     * hashes file in {@code dir}, then {@code options} (a fork among them).
     */
    public static ServerOptions options(Path dataDir, Path dir, String... options) throws IOException {
        Path secret = Files.writeString(dir.resolve("jwt.hex"), SECRET);
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of(
                "--data-dir",
                dataDir.toString(),
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--jwt-secret",
                secret.toString(),
                "--hashes-out",
                dir.resolve("hashes.txt").toString()));
        return ServerOptions.parse(args.toArray(String[]::new));
    }

    private static Path scratch() {
        try {
            return Files.createTempDirectory(Files.createDirectories(SCRATCH), "server-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies the shared pool's {@link #GENERATED} blobs (generating them first if need be) into {@code dataDir}'s
     * store; returns their versioned hashes in pool order.
     */
    public static List<VersionedHash> copySharedPool(Path dataDir) {
        List<VersionedHash> hashes = sharedPool();
        try {
            Path blobs = Files.createDirectories(dataDir.resolve("blobs"));
            try (Stream<Path> files = Files.list(SHARED_DATA.resolve("blobs"))) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.copy(file, blobs.resolve(file.getFileName()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return hashes;
    }

    /** The shared pool's hashes, once a server over {@code target/test-blobs} has topped it up and stopped. */
    private static synchronized List<VersionedHash> sharedPool() {
        if (sharedHashes == null) {
            try (EngineServerFixture shared = start(
                    SHARED_DATA,
                    List.of("--generate", Integer.toString(GENERATED)),
                    Clock.systemUTC(),
                    scratch(),
                    Seams.SYSTEM)) {
                sharedHashes = List.copyOf(shared.hashes());
            }
        }
        return sharedHashes;
    }

    public ExampleServer server() {
        return server;
    }

    /** The server's port (JWT required). */
    public int port() {
        return server.engineAddress().getPort();
    }

    public List<VersionedHash> hashes() {
        return server.pool().hashes();
    }

    /** {@code n} versioned hashes cycling through the pool's: how tests ask for 128 blobs from a few. */
    public List<VersionedHash> cycledHashes(int n) {
        List<VersionedHash> hashes = hashes();
        List<VersionedHash> cycled = new ArrayList<>(n);
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
     * What the pool holds, in memory and on disk: item keys, versioned hashes, file names, in order. Equal before and
     * after a request that changed nothing.
     */
    public List<List<String>> poolState() {
        return poolState(server.pool(), dataDir);
    }

    /** {@link #poolState()} of {@code pool} stored under {@code dataDir}. */
    public static List<List<String>> poolState(DurableBlobPool pool, Path dataDir) {
        try (Stream<Path> files = Files.list(dataDir.resolve("blobs"))) {
            return List.of(
                    pool.itemKeys(),
                    pool.hashes().stream().map(VersionedHash::toString).toList(),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.close();
        delete(scratch);
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
