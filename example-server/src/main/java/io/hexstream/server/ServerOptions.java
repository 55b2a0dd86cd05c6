package io.hexstream.server;

import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.engine.Fork;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The server's configuration: its command-line options, each with its default, unit and range declared here once (a
 * value out of range is refused in one line naming the option). {@link Main} parses them from the command line, tests
 * and benchmarks from arguments with {@link #parse}: the same options, the same defaults. The start-up steps in this
 * package read the fields.
 */
public final class ServerOptions {
    /** The hashes file's name in the data dir, unless {@code --hashes-out} says otherwise. */
    static final String HASHES_FILE = "hashes.txt";

    @Option(
            names = "--host",
            paramLabel = "HOST",
            defaultValue = "127.0.0.1",
            description = "Address the Engine API port (and --rpc-port) binds (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "8551",
            converter = PortNumber.class,
            description = "Engine API port, JWT required; 0: any free one, logged (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(
            names = "--rpc-port",
            paramLabel = "PORT",
            converter = PortNumber.class,
            description = "Also serve eth_sendRawTransaction without JWT on this port, for wallets (no engine_ method;"
                    + " half the ingest queue and of the pool, 16 transactions per sender) (default: off).")
    Integer rpcPort;

    @Option(
            names = "--ipc-path",
            paramLabel = "FILE",
            description = "Also serve the same API on this Unix domain socket, mode 600, without JWT (the file's"
                    + " permissions are the gate); Linux x86-64 (default: off).")
    Path ipcPath;

    @Option(
            names = "--rpc-max-connections",
            paramLabel = "N",
            defaultValue = "8",
            converter = AtLeastOne.class,
            description = "More connections at once to --rpc-port are closed at accept; its own places, apart from"
                    + " --max-connections (default: ${DEFAULT-VALUE}).")
    int rpcMaxConnections;

    @Mixin
    SecretOptions secret;

    @Option(
            names = "--generate",
            paramLabel = "N",
            defaultValue = "6",
            converter = AtLeastZero.class,
            description = "Fill the pool with N random blobs with real KZG proofs, kept in the data dir"
                    + " (default: ${DEFAULT-VALUE}).")
    int generate;

    @Option(
            names = "--hashes-out",
            paramLabel = "FILE",
            description = "Write the pool's versioned hashes here, one per line (default: DATA_DIR/hashes.txt).")
    Path hashesOut;

    @Option(
            names = "--fork",
            paramLabel = "FORK",
            defaultValue = "osaka",
            description = "prague (getBlobsV1), osaka or amsterdam (getBlobsV2/V3/V4) (default: ${DEFAULT-VALUE}).")
    Fork fork;

    @Option(
            names = "--max-blobs-per-request",
            paramLabel = "N",
            defaultValue = "128",
            converter = AtLeastOne.class,
            description = "More versioned hashes than this get -38004 Too large request (default: ${DEFAULT-VALUE}).")
    int maxBlobsPerRequest;

    @Option(
            names = "--max-request-bytes",
            paramLabel = "BYTES",
            defaultValue = "16777216",
            converter = AtLeastOne.class,
            description = "Larger request bodies get HTTP 413 unread (default: ${DEFAULT-VALUE}).")
    int maxRequestBytes;

    @Option(
            names = "--pool-max-blobs",
            paramLabel = "N",
            defaultValue = "1024",
            converter = AtLeastOne.class,
            description = "Pool capacity in blobs; the oldest generated blob or transaction is evicted first"
                    + " (default: ${DEFAULT-VALUE}).")
    int poolMaxBlobs;

    @Option(
            names = "--idle-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            converter = Seconds.class,
            description = "Close a connection that has waited this long for a whole request while no response was"
                    + " being written (slow or silent clients); 0: never (default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(
            names = "--ingest-threads",
            paramLabel = "N",
            defaultValue = "1",
            converter = AtLeastOne.class,
            description = "Threads that verify (KZG) and store eth_sendRawTransaction calls, off the I/O threads; up to"
                    + " 16 calls per thread wait, more get -32000 server busy (default: ${DEFAULT-VALUE}).")
    int ingestThreads;

    /** EIP-7594's {@code MAX_BLOBS_PER_TX}. */
    @Option(
            names = "--max-blobs-per-tx",
            paramLabel = "N",
            defaultValue = "6",
            converter = AtLeastOne.class,
            description = "Transactions with more blobs are refused (EIP-7594 MAX_BLOBS_PER_TX)"
                    + " (default: ${DEFAULT-VALUE}).")
    int maxBlobsPerTx;

    /** Besu's default batch limit. */
    @Option(
            names = "--max-batch-size",
            paramLabel = "N",
            defaultValue = "1024",
            converter = AtLeastOne.class,
            description = "A JSON-RPC batch of more requests gets one -32600 (default: ${DEFAULT-VALUE}).")
    int maxBatchSize;

    /** 256 MiB, near geth's 250 MB. */
    @Option(
            names = "--max-response-bytes",
            paramLabel = "BYTES",
            defaultValue = "268435456",
            converter = PositiveLong.class,
            description = "Replies to one HTTP request take at most this many bytes; a call whose reply would pass it"
                    + " gets -32000 instead (default: ${DEFAULT-VALUE}).")
    long maxResponseBytes;

    @Option(
            names = "--max-pipelined",
            paramLabel = "N",
            defaultValue = "16",
            converter = AtLeastOne.class,
            description = "Per connection, requests taken before their responses are written; then the socket is not"
                    + " read until they drain (default: ${DEFAULT-VALUE}).")
    int maxPipelined;

    @Option(
            names = "--max-concurrent-streams",
            paramLabel = "N",
            converter = AtLeastOne.class,
            description = "Per HTTP/2 connection on the Engine API's port and the IPC socket, streams open at once"
                    + " (SETTINGS_MAX_CONCURRENT_STREAMS; more are refused with REFUSED_STREAM)"
                    + " (default: as --max-pipelined).")
    Integer maxConcurrentStreams;

    /** {@code --max-concurrent-streams}, or {@code --max-pipelined}'s value without it. */
    int concurrentStreams() {
        return maxConcurrentStreams != null ? maxConcurrentStreams : maxPipelined;
    }

    @Option(
            names = "--max-connections",
            paramLabel = "N",
            defaultValue = "64",
            converter = AtLeastOne.class,
            description = "Connections open at once; when all are taken, one that has not passed the JWT gives its"
                    + " place to a new one (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(
            names = "--write-timeout",
            paramLabel = "SECONDS",
            defaultValue = "60",
            converter = Seconds.class,
            description = "Close a connection whose response has made no progress this long; 0: never"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration writeTimeout;

    /**
     * 64 MiB of hex digits: 244 blobs with their cell proofs (274,432 bytes each), so a whole 128-blob request and the
     * newest slots' blobs (at most 21 a block under Osaka's BPO2) with room to spare, for a quarter of what the default
     * pool's 1,024 blobs would take encoded (268 MiB).
     */
    @Option(
            names = "--hex-cache-mib",
            paramLabel = "MIB",
            defaultValue = "64",
            converter = AtLeastZero.class,
            description = "Keep the newest pooled blobs rendered as getBlobs JSON, once as they enter the pool, in this"
                    + " many MiB of direct memory, and answer getBlobs from them; 0: off (default: ${DEFAULT-VALUE}).")
    int hexCacheMib;

    @Option(
            names = "--metrics-port",
            paramLabel = "PORT",
            converter = PortNumber.class,
            description =
                    "Serve GET /metrics (Prometheus text, or OpenMetrics when asked) on this port" + " (default: off).")
    Integer metricsPort;

    @Option(
            names = "--metrics-host",
            paramLabel = "HOST",
            defaultValue = "127.0.0.1",
            description = "Address the metrics port binds; it has no JWT (default: ${DEFAULT-VALUE}).")
    String metricsHost;

    @Option(
            names = "--access-log",
            description = "Log one line per response (method, hashes, hits, bytes, time to last byte, outcome)"
                    + " on the logger hexstream.access (default: off).")
    boolean accessLog;

    /** geth's and erigon's behaviour after Osaka: v0 sidecars are converted. */
    @Option(
            names = "--convert-v0-sidecars",
            paramLabel = "BOOLEAN",
            arity = "0..1",
            fallbackValue = "true",
            defaultValue = "true",
            description = "Under osaka or later, compute the cell proofs of a blob transaction sent with blob proofs"
                    + " (EIP-4844 form) at eth_sendRawTransaction, about 0.5 s a blob off the I/O threads, so that"
                    + " getBlobsV2/V3 serve it; false: pool it with its blob proofs only (default: ${DEFAULT-VALUE}).")
    boolean convertV0Sidecars;

    /**
     * The options {@code args} give, the others at their defaults, as the command line parses them.
     *
     * @throws CommandLine.ParameterException an unknown option or a value out of range, in one line
     */
    public static ServerOptions parse(String... args) {
        ServerOptions options = new ServerOptions();
        configure(new CommandLine(options)).parseArgs(args);
        return options;
    }

    /** How every command line of the server parses: fork and log level names in any case. */
    public static CommandLine configure(CommandLine commandLine) {
        return commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    }

    Path dataDir() {
        return secret.dataDir;
    }

    /** {@code --hashes-out}, or {@code DATA_DIR/hashes.txt}. */
    Path hashesFile() {
        return hashesOut != null ? hashesOut : dataDir().resolve(HASHES_FILE);
    }

    /** Where the secret is: the server's and {@code token}'s options. */
    public static final class SecretOptions {
        @Option(
                names = "--jwt-secret",
                paramLabel = "FILE",
                description = "File with the 32-byte hex secret (0x optional); the server generates the default one"
                        + " if absent (default: DATA_DIR/jwt.hex).")
        Path jwtSecret;

        @Option(
                names = "--data-dir",
                paramLabel = "DIR",
                defaultValue = "hexstream-data",
                description = "Where the pool (generated blobs, transactions), the generated secret and the hashes file"
                        + " live (default: ${DEFAULT-VALUE}).")
        Path dataDir;

        /** {@code --data-dir}. */
        public Path dataDir() {
            return dataDir;
        }

        /** {@code --jwt-secret}, or {@code DATA_DIR/jwt.hex}. */
        public Path file() {
            return jwtSecret != null ? jwtSecret : dataDir.resolve(JwtSecret.DEFAULT_FILE);
        }

        /** Whether the secret is the default file, which the server generates if it is absent. */
        public boolean isDefault() {
            return jwtSecret == null;
        }

        /**
         * The secret in its file.
         *
         * @throws StartupException {@code --jwt-secret FILE: no such file}, {@code not readable}, or what is wrong with
         *     its content ({@code is not 32 hex-encoded bytes (64 hex digits, 0x optional): got 63 digits})
         */
        public JwtSecret read() throws StartupException {
            String option = name() + ": ";
            try {
                return JwtSecret.read(file());
            } catch (NoSuchFileException e) {
                throw new StartupException(option + "no such file", e);
            } catch (AccessDeniedException e) {
                throw new StartupException(option + "not readable", e);
            } catch (IOException e) {
                throw new StartupException(option + StartupErrors.reason(e), e);
            } catch (IllegalArgumentException e) {
                throw new StartupException(option + e.getMessage(), e);
            }
        }

        /** How an error about the secret file names it: the option that gave it, or the file. */
        String name() {
            return isDefault() ? file().toString() : "--jwt-secret " + jwtSecret;
        }
    }

    /** A TCP port, 0–65535; 0: any free one. */
    static final class PortNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int port = integer(value);
            if (port < 0 || port > 65535) {
                throw new TypeConversionException("'" + value + "' is not a port (0-65535)");
            }
            return port;
        }
    }

    /** A count or size that may be zero. */
    static final class AtLeastZero implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = integer(value);
            if (n < 0) {
                throw new TypeConversionException("'" + value + "' is negative");
            }
            return n;
        }
    }

    /** A time in whole seconds that may be zero. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Duration.ofSeconds(new AtLeastZero().convert(value));
        }
    }

    /** A count or size that must be positive. */
    static final class AtLeastOne implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int n = integer(value);
            if (n < 1) {
                throw new TypeConversionException("'" + value + "' is not at least 1");
            }
            return n;
        }
    }

    /** A byte count that must be positive. */
    static final class PositiveLong implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long n;
            try {
                n = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a long");
            }
            if (n < 1) {
                throw new TypeConversionException("'" + value + "' is not at least 1");
            }
            return n;
        }
    }

    private static int integer(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not an int");
        }
    }
}
