package io.hexstream.server;

import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.engine.Fork;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The command line: serve the Engine API (default), or print a token ({@code token}). */
@Command(name = "hexstream-example-server", mixinStandardHelpOptions = true,
        description = "A JWT-authenticated Engine API server for engine_getBlobsV1/V2/V3, streaming through hexstream,"
                + " with eth_sendRawTransaction for blob transactions.",
        subcommands = Main.TokenCommand.class)
public final class Main implements Callable<Integer> {
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8551", description = "Engine API port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--rpc-port", paramLabel = "PORT",
            description = "Also serve the same API without JWT on this port (eth_sendRawTransaction for wallets). Default: off.")
    Integer rpcPort;

    @Option(names = "--jwt-secret", paramLabel = "FILE",
            description = "File with the 32-byte hex secret (0x optional). Default: DATA_DIR/jwt.hex, generated if absent.")
    Path jwtSecret;

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "hexstream-data",
            description = "Where the pool (generated blobs, transactions), the generated secret and the hashes file live (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--generate", paramLabel = "N", defaultValue = "6",
            description = "Fill the pool with N random blobs with real KZG proofs, kept in the data dir (default: ${DEFAULT-VALUE}).")
    int generate;

    @Option(names = "--hashes-out", paramLabel = "FILE",
            description = "Write the pool's versioned hashes here, one per line. Default: DATA_DIR/hashes.txt.")
    Path hashesOut;

    @Option(names = "--fork", defaultValue = "osaka",
            description = "prague (getBlobsV1) or osaka (getBlobsV2/V3) (default: ${DEFAULT-VALUE}).")
    Fork fork;

    @Option(names = "--max-blobs-per-request", defaultValue = "128",
            description = "More versioned hashes than this get -38004 Too large request (default: ${DEFAULT-VALUE}).")
    int maxBlobsPerRequest;

    @Option(names = "--max-request-bytes", defaultValue = "16777216",
            description = "Larger request bodies get HTTP 413 unread (default: ${DEFAULT-VALUE}).")
    int maxRequestBytes;

    @Option(names = "--pool-max-blobs", defaultValue = "1024",
            description = "Pool capacity in blobs; the oldest generated blob or transaction is evicted first (default: ${DEFAULT-VALUE}).")
    int poolMaxBlobs;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Close a connection that has waited this long for a whole request while no response was being"
                    + " written (slow or silent clients); 0: never (default: ${DEFAULT-VALUE}).")
    int idleTimeout;

    @Option(names = "--ingest-threads", paramLabel = "N", defaultValue = "1",
            description = "Threads that verify (KZG) and store eth_sendRawTransaction calls, off the I/O threads; up to"
                    + " 16 calls per thread wait, more get -32000 server busy (default: ${DEFAULT-VALUE}).")
    int ingestThreads;

    @Option(names = "--max-blobs-per-tx", paramLabel = "N", defaultValue = "6",
            description = "Transactions with more blobs are refused (EIP-7594 MAX_BLOBS_PER_TX; default: ${DEFAULT-VALUE}).")
    int maxBlobsPerTx;

    @Option(names = "--max-batch-size", paramLabel = "N", defaultValue = "1024",
            description = "A JSON-RPC batch of more requests gets one -32600 (default: ${DEFAULT-VALUE}).")
    int maxBatchSize;

    @Option(names = "--max-response-bytes", paramLabel = "BYTES", defaultValue = "268435456",
            description = "Replies to one HTTP request take at most this many bytes; a call whose reply would pass it"
                    + " gets -32000 instead (default: ${DEFAULT-VALUE}).")
    long maxResponseBytes;

    @Option(names = "--max-pipelined", paramLabel = "N", defaultValue = "16",
            description = "Per connection, requests taken before their responses are written; then the socket is not"
                    + " read until they drain (default: ${DEFAULT-VALUE}).")
    int maxPipelined;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "64",
            description = "More connections at once are closed at accept (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--write-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Close a connection whose response has made no progress this long; 0: never (default: ${DEFAULT-VALUE}).")
    int writeTimeout;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public Integer call() throws Exception {
        Path secretFile = jwtSecret != null ? jwtSecret : dataDir.resolve(JwtSecret.DEFAULT_FILE);
        Path hashesFile = hashesOut != null ? hashesOut : dataDir.resolve("hashes.txt");
        try (ExampleServer server = ExampleServer.start(new ExampleServer.Config(host, port, rpcPort, secretFile,
                jwtSecret == null, dataDir, generate, hashesFile, fork, maxBlobsPerRequest, maxRequestBytes,
                poolMaxBlobs, Duration.ofSeconds(idleTimeout), ingestThreads, maxBlobsPerTx, maxBatchSize, maxResponseBytes,
                maxPipelined, maxConnections, Duration.ofSeconds(writeTimeout)))) {
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "hexstream-shutdown"));
            server.awaitClose();
        }
        return 0;
    }

    /** Prints a fresh HS256 token for the secret, for curl and other clients. */
    @Command(name = "token", mixinStandardHelpOptions = true, description = "Print a fresh HS256 JWT for the secret.")
    static final class TokenCommand implements Callable<Integer> {
        @Option(names = "--jwt-secret", paramLabel = "FILE", required = true, description = "The secret file.")
        Path jwtSecret;

        @Override
        public Integer call() throws Exception {
            System.out.println(new JwtAuthenticator(JwtSecret.read(jwtSecret).bytes(), Clock.systemUTC()).token());
            return 0;
        }
    }
}
