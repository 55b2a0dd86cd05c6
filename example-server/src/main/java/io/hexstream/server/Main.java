package io.hexstream.server;

import static io.hexstream.server.ExampleServer.Config.DEFAULT_CONVERT_V0_SIDECARS;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_DATA_DIR;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_FORK;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_GENERATE;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_HEX_CACHE_MIB;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_HOST;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_IDLE_TIMEOUT_SECONDS;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_INGEST_THREADS;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_BATCH_SIZE;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_BLOBS_PER_REQUEST;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_BLOBS_PER_TX;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_CONNECTIONS;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_PIPELINED;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_REQUEST_BYTES;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_MAX_RESPONSE_BYTES;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_METRICS_HOST;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_POOL_MAX_BLOBS;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_PORT;
import static io.hexstream.server.ExampleServer.Config.DEFAULT_WRITE_TIMEOUT_SECONDS;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.rpc.ResponseRenderer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;

/**
 * The command line: serve the Engine API (default), or print a token ({@code token}). Logs go to
 * stdout; a start-up failure or a bad option is one line on stderr and a non-zero exit (1 and 2), with
 * the stack trace in the log only at {@code --log-level debug}. Ctrl-C and SIGTERM stop the server and
 * exit 0.
 */
@Command(name = "hexstream-example-server", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "A JWT-authenticated Engine API server for engine_getBlobsV1/V2/V3, streaming through hexstream,"
                + " with eth_sendRawTransaction for blob transactions.",
        subcommands = Main.TokenCommand.class)
public final class Main implements Callable<Integer> {
    @Option(names = "--host", defaultValue = DEFAULT_HOST, description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "" + DEFAULT_PORT, converter = PortNumber.class,
            description = "Engine API port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--rpc-port", paramLabel = "PORT", converter = PortNumber.class,
            description = "Also serve the same API without JWT on this port (eth_sendRawTransaction for wallets). Default: off.")
    Integer rpcPort;

    @Mixin
    SecretOptions secret;

    @Option(names = "--generate", paramLabel = "N", defaultValue = "" + DEFAULT_GENERATE, converter = AtLeastZero.class,
            description = "Fill the pool with N random blobs with real KZG proofs, kept in the data dir (default: ${DEFAULT-VALUE}).")
    int generate;

    @Option(names = "--hashes-out", paramLabel = "FILE",
            description = "Write the pool's versioned hashes here, one per line. Default: DATA_DIR/hashes.txt.")
    Path hashesOut;

    @Option(names = "--fork", defaultValue = DEFAULT_FORK,
            description = "prague (getBlobsV1), osaka or amsterdam (getBlobsV2/V3/V4) (default: ${DEFAULT-VALUE}).")
    Fork fork;

    @Option(names = "--max-blobs-per-request", defaultValue = "" + DEFAULT_MAX_BLOBS_PER_REQUEST, converter = AtLeastOne.class,
            description = "More versioned hashes than this get -38004 Too large request (default: ${DEFAULT-VALUE}).")
    int maxBlobsPerRequest;

    @Option(names = "--max-request-bytes", defaultValue = "" + DEFAULT_MAX_REQUEST_BYTES, converter = AtLeastOne.class,
            description = "Larger request bodies get HTTP 413 unread (default: ${DEFAULT-VALUE}).")
    int maxRequestBytes;

    @Option(names = "--pool-max-blobs", defaultValue = "" + DEFAULT_POOL_MAX_BLOBS, converter = AtLeastOne.class,
            description = "Pool capacity in blobs; the oldest generated blob or transaction is evicted first (default: ${DEFAULT-VALUE}).")
    int poolMaxBlobs;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "" + DEFAULT_IDLE_TIMEOUT_SECONDS,
            converter = AtLeastZero.class,
            description = "Close a connection that has waited this long for a whole request while no response was being"
                    + " written (slow or silent clients); 0: never (default: ${DEFAULT-VALUE}).")
    int idleTimeout;

    @Option(names = "--ingest-threads", paramLabel = "N", defaultValue = "" + DEFAULT_INGEST_THREADS,
            converter = AtLeastOne.class,
            description = "Threads that verify (KZG) and store eth_sendRawTransaction calls, off the I/O threads; up to"
                    + " 16 calls per thread wait, more get -32000 server busy (default: ${DEFAULT-VALUE}).")
    int ingestThreads;

    @Option(names = "--max-blobs-per-tx", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_BLOBS_PER_TX,
            converter = AtLeastOne.class,
            description = "Transactions with more blobs are refused (EIP-7594 MAX_BLOBS_PER_TX; default: ${DEFAULT-VALUE}).")
    int maxBlobsPerTx;

    @Option(names = "--max-batch-size", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_BATCH_SIZE,
            converter = AtLeastOne.class,
            description = "A JSON-RPC batch of more requests gets one -32600 (default: ${DEFAULT-VALUE}).")
    int maxBatchSize;

    @Option(names = "--max-response-bytes", paramLabel = "BYTES", defaultValue = "" + DEFAULT_MAX_RESPONSE_BYTES,
            converter = PositiveLong.class,
            description = "Replies to one HTTP request take at most this many bytes; a call whose reply would pass it"
                    + " gets -32000 instead (default: ${DEFAULT-VALUE}).")
    long maxResponseBytes;

    @Option(names = "--max-pipelined", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_PIPELINED,
            converter = AtLeastOne.class,
            description = "Per connection, requests taken before their responses are written; then the socket is not"
                    + " read until they drain (default: ${DEFAULT-VALUE}).")
    int maxPipelined;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_CONNECTIONS,
            converter = AtLeastOne.class,
            description = "More connections at once are closed at accept (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--write-timeout", paramLabel = "SECONDS", defaultValue = "" + DEFAULT_WRITE_TIMEOUT_SECONDS,
            converter = AtLeastZero.class,
            description = "Close a connection whose response has made no progress this long; 0: never (default: ${DEFAULT-VALUE}).")
    int writeTimeout;

    @Option(names = "--hex-cache-mib", paramLabel = "MIB", defaultValue = "" + DEFAULT_HEX_CACHE_MIB,
            converter = AtLeastZero.class,
            description = "Keep the hex digits of the newest pooled blobs and proofs, encoded once as they enter the"
                    + " pool, in this many MiB (the blobs' in direct memory), and answer getBlobs from them; 0: off"
                    + " (default: ${DEFAULT-VALUE}).")
    int hexCacheMib;

    @Option(names = "--metrics-port", paramLabel = "PORT", converter = PortNumber.class,
            description = "Serve GET /metrics (Prometheus text, or OpenMetrics when asked) on this port. Default: off.")
    Integer metricsPort;

    @Option(names = "--metrics-host", paramLabel = "HOST", defaultValue = DEFAULT_METRICS_HOST,
            description = "Address the metrics port binds; it has no JWT (default: ${DEFAULT-VALUE}).")
    String metricsHost;

    @Option(names = "--access-log",
            description = "Log one line per response (method, hashes, hits, bytes, time to last byte, outcome)"
                    + " on the logger hexstream.access. Default: off.")
    boolean accessLog;

    @Option(names = "--convert-v0-sidecars", paramLabel = "BOOLEAN", arity = "0..1", fallbackValue = "true",
            defaultValue = "" + DEFAULT_CONVERT_V0_SIDECARS,
            description = "Under osaka or later, compute the cell proofs of a blob transaction sent with blob proofs"
                    + " (EIP-4844 form) at eth_sendRawTransaction, about 0.5 s a blob off the I/O threads, so that"
                    + " getBlobsV2/V3 serve it; false: pool it with its blob proofs only (default: ${DEFAULT-VALUE}).")
    boolean convertV0Sidecars;

    @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "info",
            description = "error, warn, info, debug or trace; debug also logs the stack trace of a start-up failure"
                    + " (default: ${DEFAULT-VALUE}).")
    LogLevel logLevel;

    public static void main(String[] args) {
        StopSignal.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(Main::badOption)
                .setExecutionExceptionHandler(Main::failed);
    }

    /**
     * Starts serving, generates the missing blobs, and serves until Ctrl-C or SIGTERM; then lets the
     * responses in flight finish (up to 2 s) and returns 0.
     */
    @Override
    public Integer call() throws StartupException, InterruptedException {
        logLevel.apply();
        StopSignal stop = StopSignal.install();
        try (ExampleServer server = ExampleServer.open(config(), ResponseRenderer::streaming, Clock.systemUTC())) {
            server.topUp(stop);
            stop.await();
        }
        return 0;
    }

    ExampleServer.Config config() {
        return ExampleServer.Config.builder().host(host).port(port).rpcPort(rpcPort).jwtSecret(secret.jwtSecret)
                .dataDir(secret.dataDir).generate(generate).hashesOut(hashesOut).fork(fork)
                .maxBlobsPerRequest(maxBlobsPerRequest).maxRequestBytes(maxRequestBytes).poolMaxBlobs(poolMaxBlobs)
                .idleTimeout(Duration.ofSeconds(idleTimeout)).ingestThreads(ingestThreads).maxBlobsPerTx(maxBlobsPerTx)
                .maxBatchSize(maxBatchSize).maxResponseBytes(maxResponseBytes).maxPipelined(maxPipelined)
                .maxConnections(maxConnections).writeTimeout(Duration.ofSeconds(writeTimeout)).metricsHost(metricsHost)
                .metricsPort(metricsPort).accessLog(accessLog).convertV0Sidecars(convertV0Sidecars).hexCacheMib(hexCacheMib)
                .build();
    }

    /** Where the secret is: the server's and {@code token}'s options. */
    static final class SecretOptions {
        @Option(names = "--jwt-secret", paramLabel = "FILE",
                description = "File with the 32-byte hex secret (0x optional). Default: DATA_DIR/jwt.hex, generated by"
                        + " the server if absent.")
        Path jwtSecret;

        @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = DEFAULT_DATA_DIR,
                description = "Where the pool (generated blobs, transactions), the generated secret and the hashes file"
                        + " live (default: ${DEFAULT-VALUE}).")
        Path dataDir;
    }

    /** Prints a fresh HS256 token for the secret, for curl and other clients. */
    @Command(name = "token", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
            description = "Print a fresh HS256 JWT for the server's secret.")
    static final class TokenCommand implements Callable<Integer> {
        @Mixin
        SecretOptions secret;

        @Override
        public Integer call() throws StartupException {
            Path file = ExampleServer.Config.builder().dataDir(secret.dataDir).jwtSecret(secret.jwtSecret).build().secretFile();
            System.out.println(new JwtAuthenticator(ExampleServer.readSecret(file).bytes(), Clock.systemUTC()).token());
            return 0;
        }
    }

    /** {@code --log-level}: slf4j-simple's default level, set before the first logger is made. */
    enum LogLevel {
        ERROR, WARN, INFO, DEBUG, TRACE;

        void apply() {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", name().toLowerCase(Locale.ROOT));
        }
    }

    /** An option value picocli refused: its one-line message, no usage text. */
    private static int badOption(ParameterException e, String[] args) {
        e.getCommandLine().getErr().println(e.getMessage());
        return e.getCommandLine().getCommandSpec().exitCodeOnInvalidInput();
    }

    /** A start-up failure: its one-line message; the stack trace goes to the log at {@code --log-level debug}. */
    private static int failed(Exception e, CommandLine commandLine, ParseResult parsed) {
        commandLine.getErr().println(e instanceof StartupException ? e.getMessage() : e.toString());
        LoggerFactory.getLogger(Main.class).debug("start-up failed", e);
        return commandLine.getCommandSpec().exitCodeOnExecutionException();
    }

    /** A TCP port, 1–65535. */
    static final class PortNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int port = integer(value);
            if (port < 1 || port > 65535) {
                throw new TypeConversionException("'" + value + "' is not a port (1-65535)");
            }
            return port;
        }
    }

    /** A count or time that may be zero. */
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

    /** {@code --version}: the Maven project version, filtered into a resource at build time. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            try (InputStream in = Main.class.getResourceAsStream("version.txt")) {
                if (in == null) {
                    throw new IOException("version.txt is missing from the class path");
                }
                return new String[] {"hexstream-example-server " + new String(in.readAllBytes(), StandardCharsets.UTF_8).strip()};
            }
        }
    }
}
