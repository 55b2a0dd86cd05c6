package io.hexstream.server.cli;

import io.hexstream.client.BlobsClient;
import io.hexstream.client.BlobsListener;
import io.hexstream.client.BlobsMethod;
import io.hexstream.client.BlobsOutcome;
import io.hexstream.client.CellIndices;
import io.hexstream.client.EndpointUrl;
import io.hexstream.client.GetBlobsCall;
import io.hexstream.client.GetBlobsClient;
import io.hexstream.client.JwtSigner;
import io.hexstream.client.MessageClient;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.exec.BoundedExecutor;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.text.PeerText;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.ClosedChannelException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code probe}: asks an Engine API endpoint for blobs with {@code engine_getBlobsV1} to {@code V4} and prints, per
 * request, {@code engine_getBlobsV2 #1: 6/6 blobs, 1,650,592 bytes, first byte 0.84 ms, first blob 1.91 ms, last byte
 * 7.42 ms}; with {@code --repeat N}, then the p50 and p99 of the three times. Exit 0 when every response is a
 * well-formed result; else one line on stderr naming the fault ({@code engine_getBlobsV2: result[3].blob: odd number of
 * hex digits at byte 4,194,311}, {@code engine_getBlobsV1: -38005 Unsupported fork}) and exit 1, at the first faulty
 * response. The run has a deadline, {@code --timeout} seconds from its start whatever the server sends: past it, one
 * line ({@code no response within the run's 60 s (--timeout)}) and exit 1. A usage error is one line and exit 2, as for
 * the server. With {@code --transport ssz} the calls go to the REST routes of execution-apis #793 instead, with the
 * same lines, checks and files. With {@code --capabilities} a line saying where the endpoint's capabilities document
 * is, and what it lists, comes first ({@link CapabilitiesLookup}). With {@code --http2} the client speaks h2c with
 * prior knowledge to the {@code http} URL or the IPC socket, each request a stream of its own; {@code --concurrency N}
 * keeps N requests in flight on the one connection (N streams, else pipelined), their lines numbered in the order sent.
 */
@Command(
        name = "probe",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = "Ask an Engine API endpoint for blobs (engine_getBlobsV1 to V4) and print the time to the first"
                + " byte, the first blob and the last byte of each response; optionally check and keep them.")
public final class ProbeCommand implements Callable<Integer> {
    /**
     * The longest fault printed, characters: it may quote the server (an error's {@code message}, a problem's
     * {@code detail}, a status line), so it is printed escaped to one line of printable ASCII ({@link PeerText}).
     */
    static final int MAX_FAULT_CHARS = 4 * PeerText.MAX_CHARS;
    /**
     * Entries that may wait for the worker: {@link EntryWork} pauses the socket at {@value EntryWork#MAX_PENDING}, and
     * the read under way then may still finish a few small V4 entries.
     */
    static final int WORK_QUEUE = 1024;
    /**
     * The most requests {@code --concurrency} keeps in flight: each may have {@value EntryWork#MAX_PENDING} entries
     * waiting for the worker before it pauses the socket, and all of them fit {@link #WORK_QUEUE}.
     */
    static final int MAX_CONCURRENCY = 32;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--url",
            paramLabel = "URL",
            description = "The endpoint, http://HOST:PORT[/PATH]: POSTed to as given (--transport ssz: PATH followed"
                    + " by the route, /engine/v1/blobs/v1 to /v4); or ws://HOST:PORT[/PATH], JSON-RPC over WebSocket.")
    String url;

    @Option(
            names = "--ipc-path",
            paramLabel = "FILE",
            description = "The endpoint's Unix domain socket instead of --url: newline-delimited JSON-RPC, no JWT"
                    + " (with --http2: h2c, JSON-RPC or --transport ssz, the JWT of --jwt-secret if given).")
    Path ipcPath;

    @Option(
            names = "--http2",
            description = "Speak h2c with prior knowledge (RFC 9113, section 3.3) to the http:// URL or --ipc-path:"
                    + " each request a stream of its own on one connection, each with its own JWT.")
    boolean http2;

    @Option(
            names = "--concurrency",
            paramLabel = "N",
            defaultValue = "1",
            description = "Keep N requests in flight at once on the one connection (with --http2, N streams; else"
                    + " pipelined), 1 to " + MAX_CONCURRENCY + "; --repeat counts rounds of N"
                    + " (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--jwt-secret",
            paramLabel = "FILE",
            description = "File with the endpoint's 32-byte hex JWT secret (0x optional); required with --url.")
    Path jwtSecret;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Hashes hashes;

    @Option(
            names = "--method",
            paramLabel = "METHOD",
            defaultValue = "engine_getBlobsV2",
            converter = MethodName.class,
            description = "engine_getBlobsV1, engine_getBlobsV2, engine_getBlobsV3 or engine_getBlobsV4"
                    + " (default: ${DEFAULT-VALUE}).")
    BlobsMethod method;

    @Option(
            names = "--cells",
            paramLabel = "HEX",
            description = "engine_getBlobsV4's indices_bitarray, 16 bytes of DATA; cell i is bit i%%8 of byte i/8"
                    + " (default: all 128 cells).")
    String cells;

    @Option(
            names = "--transport",
            paramLabel = "TRANSPORT",
            defaultValue = "json",
            description = "json (JSON-RPC, POSTed to URL as given) or ssz (the REST routes of execution-apis #793,"
                    + " POSTed to URL's path followed by /engine/v1/blobs/v1 to /v4) (default: ${DEFAULT-VALUE}).")
    String transport;

    @Option(
            names = "--repeat",
            paramLabel = "N",
            defaultValue = "1",
            description = "Send the request N times (rounds of --concurrency requests), one after the other on one"
                    + " connection, then print the p50 and p99 (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "The deadline of the whole run, from its start: connecting, every request and the last byte"
                    + " of every response, whatever the server sends; past it, one line and exit 1"
                    + " (default: ${DEFAULT-VALUE}).")
    long timeout;

    @Option(
            names = "--verify",
            description = "Check each blob's KZG commitment against its versioned hash, and its proofs (not with"
                    + " engine_getBlobsV4, which answers no blob).")
    boolean verify;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Write each blob answered to DIR/<hash>.blob and .proofs (V4: each cell to"
                    + " <hash>.cell-<index> and .proof-<index>), once its response is known to be well-formed.")
    Path out;

    @Option(
            names = "--capabilities",
            description = "First find the capabilities document, at /engine/v1/capabilities or, where that is 404, at"
                    + " /engine/v2/capabilities (releases before nethermind#13023 and reth#24906), under URL's path,"
                    + " and print a line saying which and what it lists; exit 1 if neither has one.")
    boolean capabilities;

    /** {@code --hashes FILE} or {@code --hash H …}. */
    static final class Hashes {
        @Option(
                names = "--hashes",
                paramLabel = "FILE",
                description = "File of versioned hashes, one a line (the server's hashes.txt).")
        Path file;

        @Option(
                names = "--hash",
                paramLabel = "H",
                converter = HashValue.class,
                description = "A versioned hash, 0x and 64 hex digits; repeat for more.")
        List<VersionedHash> values;
    }

    @Override
    public Integer call() throws InterruptedException {
        GetBlobsCall call = checkedCall();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
        PrintWriter err = spec.commandLine().getErr();
        byte[] secret = null;
        try {
            if (jwtSecret != null) {
                secret = JwtSecret.read(jwtSecret).bytes();
            }
        } catch (IOException | IllegalArgumentException e) {
            err.println("--jwt-secret " + jwtSecret + ": " + reason(e));
            return 1;
        }
        try {
            if (out != null) {
                Files.createDirectories(out);
            }
        } catch (IOException e) {
            err.println("--out " + out + ": cannot create it: " + reason(e));
            return 1;
        }
        if (verify) {
            Kzg.load();
        }
        if (capabilities && !printCapabilities(secret, deadline)) {
            return 1;
        }
        boolean work = verify || out != null;
        ExecutorService worker = work
                ? BoundedExecutor.create(
                        "hexstream-probe", Math.min(4, Runtime.getRuntime().availableProcessors()), WORK_QUEUE)
                : null;
        List<BlobsOutcome> outcomes = new ArrayList<>();
        ScheduledExecutorService watch =
                Executors.newSingleThreadScheduledExecutor(new DefaultThreadFactory("hexstream-probe-deadline", true));
        try (BlobsClient client = client(secret, work)) {
            // Closing the client at the deadline ends a connect or a handshake under way too.
            watch.schedule(client::close, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            for (int r = 0; r < repeat; r++) {
                String fault = round(client, call, worker, r * concurrency, outcomes, deadline);
                if (fault != null) {
                    err.println(method.methodName() + ": " + PeerText.escape(fault, MAX_FAULT_CHARS));
                    return 1;
                }
            }
        } catch (IOException e) {
            err.println(method.methodName() + ": " + PeerText.escape(e.getMessage(), MAX_FAULT_CHARS));
            return 1;
        } finally {
            watch.shutdownNow();
            if (worker != null) {
                worker.shutdownNow();
            }
        }
        if (repeat > 1) {
            summary(outcomes);
        }
        return 0;
    }

    /** {@code --capabilities}: its line printed, or its fault on stderr and {@code false}. */
    private boolean printCapabilities(byte[] secret, long deadline) throws InterruptedException {
        EndpointUrl endpoint = EndpointUrl.parse(url);
        String path = endpoint.target().replaceFirst("\\?.*", "").replaceFirst("/$", "");
        String late = "no response within the run's " + timeout + " s (--timeout)";
        try {
            spec.commandLine()
                    .getOut()
                    .println(CapabilitiesLookup.line(endpoint, path, new JwtSigner(secret), deadline, late));
            return true;
        } catch (IOException e) {
            spec.commandLine().getErr().println("capabilities: " + PeerText.escape(describe(e), MAX_FAULT_CHARS));
            return false;
        }
    }

    /** The client of the endpoint the options name. */
    private BlobsClient client(byte[] secret, boolean paced) throws IOException {
        if (http2) {
            GetBlobsClient.Builder builder = GetBlobsClient.builder(
                            ipcPath != null ? EndpointUrl.parse("http://localhost/") : EndpointUrl.parse(url))
                    .http2(true)
                    .maxConcurrentStreams(concurrency)
                    .paced(paced)
                    .ssz(transport.equalsIgnoreCase("ssz"))
                    .ipcPath(ipcPath);
            return (secret != null ? builder.tokens(new JwtSigner(secret)) : builder).build();
        }
        if (ipcPath != null) {
            return MessageClient.ipc(ipcPath, paced);
        }
        JwtSigner tokens = new JwtSigner(secret);
        if (url.regionMatches(true, 0, "ws:", 0, 3)) {
            return MessageClient.webSocket(MessageClient.webSocketUrl(url), tokens, paced);
        }
        return GetBlobsClient.builder(EndpointUrl.parse(url))
                .tokens(tokens)
                .paced(paced)
                .ssz(transport.equalsIgnoreCase("ssz"))
                .build();
    }

    /** A request sent: its outcome to come, and its entries' work and files if any. */
    private record Sent(CompletableFuture<BlobsOutcome> outcome, EntryWork work, ResponseFiles files, String fault) {}

    /**
     * One round: {@code --concurrency} requests sent at once, then each finished in turn ({@link #finish}), numbered
     * from {@code done + 1}; the first fault, the client then closed and the rest left without their files.
     */
    private String round(
            BlobsClient client,
            GetBlobsCall call,
            ExecutorService worker,
            int done,
            List<BlobsOutcome> outcomes,
            long deadline)
            throws InterruptedException {
        List<Sent> sent = new ArrayList<>();
        SharedPause pause = new SharedPause(client);
        for (int i = 0; i < concurrency; i++) {
            sent.add(send(client, pause.vote(), call, worker, deadline));
        }
        String fault = null;
        for (int i = 0; i < sent.size(); i++) {
            String failed = finish(client, sent.get(i), done + i + 1, fault == null ? outcomes : null, deadline);
            if (fault == null && failed != null) {
                fault = failed;
                client.close(); // no more entries are handed over to the requests left
            }
        }
        return fault;
    }

    /**
     * Sends one request, its entries' work pausing the client through {@code pause}; past the {@code deadline}
     * ({@link System#nanoTime()}) or failing to, its fault.
     */
    private Sent send(BlobsClient client, BlobsClient pause, GetBlobsCall call, ExecutorService worker, long deadline)
            throws InterruptedException {
        ResponseFiles files = out != null ? new ResponseFiles(out) : null;
        EntryWork work = worker != null ? new EntryWork(call.hashes(), files, verify, worker, pause) : null;
        try {
            if (System.nanoTime() - deadline >= 0) {
                return new Sent(null, work, files, late()); // the client is closed, or is being
            }
            return new Sent(client.call(call, work != null ? work : new BlobsListener() {}), work, files, null);
        } catch (IOException e) {
            return new Sent(null, work, files, e.getMessage());
        }
    }

    /**
     * The client's pausing, shared by the requests of a round: it reads while none of their {@link EntryWork}s asks it
     * to pause, so that each holds at most {@value EntryWork#MAX_PENDING} entries (and a read's worth) whatever the
     * others do. Each request pauses and resumes through its own {@link #vote()}; nothing else of it is used.
     */
    private static final class SharedPause {
        private final BlobsClient client;
        private int pausing;

        SharedPause(BlobsClient client) {
            this.client = client;
        }

        BlobsClient vote() {
            return new BlobsClient() {
                private boolean paused;

                @Override
                public CompletableFuture<BlobsOutcome> call(GetBlobsCall call, BlobsListener listener) {
                    throw new UnsupportedOperationException("a vote on pausing, not a client");
                }

                @Override
                public void pause() {
                    synchronized (SharedPause.this) {
                        if (!paused) {
                            paused = true;
                            if (pausing++ == 0) {
                                client.pause();
                            }
                        }
                    }
                }

                @Override
                public void resume() {
                    synchronized (SharedPause.this) {
                        if (paused) {
                            paused = false;
                            if (--pausing == 0) {
                                client.resume();
                            }
                        }
                    }
                }

                @Override
                public void close() {}
            };
        }
    }

    private String late() {
        return "no response within the run's " + timeout + " s (--timeout)";
    }

    /**
     * One request finished: its line printed and its files moved into place; or its fault, leaving none of its files
     * (nor does a request finished after another's fault, {@code outcomes} null). Past the {@code deadline}
     * ({@link System#nanoTime()}), whatever failed, the fault is the deadline's.
     */
    private String finish(BlobsClient client, Sent sent, int r, List<BlobsOutcome> outcomes, long deadline)
            throws InterruptedException {
        EntryWork work = sent.work();
        ResponseFiles files = sent.files();
        BlobsOutcome outcome = null;
        String fault = sent.fault();
        try {
            if (fault == null) {
                outcome = sent.outcome().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            fault = describe(e.getCause());
        } catch (TimeoutException e) {
            client.close(); // no more entries are handed over
            fault = late();
        }
        if (fault != null && System.nanoTime() - deadline >= 0) {
            fault = late();
        }
        if (work != null) {
            String wrong = work.await();
            fault = fault != null ? fault : wrong;
        }
        if (files != null) {
            if (fault != null || outcomes == null) {
                files.abort();
            } else {
                try {
                    files.commit();
                } catch (IOException e) {
                    files.abort();
                    fault = "--out " + out + ": " + e;
                }
            }
        }
        if (fault != null || outcomes == null) {
            return fault;
        }
        outcomes.add(outcome);
        spec.commandLine()
                .getOut()
                .println(String.format(
                        Locale.ROOT,
                        "%s #%d: %d/%d blobs, %,d bytes, first byte %s," + " first blob %s, last byte %s",
                        method.methodName(),
                        r,
                        outcome.available(),
                        outcome.asked(),
                        outcome.bodyBytes(),
                        ms(outcome.toHead()),
                        ms(outcome.toFirstBlob()),
                        ms(outcome.toLastByte())));
        spec.commandLine().getOut().flush();
        return null;
    }

    private void summary(List<BlobsOutcome> outcomes) {
        PrintWriter stdout = spec.commandLine().getOut();
        for (double q : new double[] {0.50, 0.99}) {
            stdout.println(String.format(
                    Locale.ROOT,
                    "%s p%d of %d: first byte %s, first blob %s, last byte %s",
                    method.methodName(),
                    Math.round(q * 100),
                    outcomes.size(),
                    ms(percentile(
                            outcomes.stream().mapToLong(BlobsOutcome::toHead).toArray(), q)),
                    ms(percentile(
                            outcomes.stream()
                                    .mapToLong(BlobsOutcome::toFirstBlob)
                                    .toArray(),
                            q)),
                    ms(percentile(
                            outcomes.stream()
                                    .mapToLong(BlobsOutcome::toLastByte)
                                    .toArray(),
                            q))));
        }
        stdout.flush();
    }

    /** The nearest-rank percentile {@code q}; -1 (none) if any value is -1. */
    static long percentile(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        if (sorted.length == 0 || sorted[0] < 0) {
            return -1;
        }
        return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static String ms(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    /** The call the options ask for; a usage error (exit 2) for options that do not go together. */
    private GetBlobsCall checkedCall() {
        if (!transport.equalsIgnoreCase("json") && !transport.equalsIgnoreCase("ssz")) {
            throw usage("Invalid value for option '--transport': '" + transport + "' is not json or ssz");
        }
        if ((url == null) == (ipcPath == null)) {
            throw usage(
                    url == null
                            ? "Missing required option: '--url=URL' or '--ipc-path=FILE'"
                            : "--url and --ipc-path do not go together");
        }
        if (url != null) {
            endpoint();
            if (jwtSecret == null) {
                throw usage("Missing required option: '--jwt-secret=FILE' (with --url)");
            }
        }
        boolean webSocket = url != null && url.regionMatches(true, 0, "ws:", 0, 3);
        if (http2 && webSocket) {
            throw usage("--http2 is h2c: with an http:// URL or --ipc-path, not a ws:// URL");
        }
        if (transport.equalsIgnoreCase("ssz") && !http2 && (ipcPath != null || webSocket)) {
            throw usage("--transport ssz is over HTTP: not with a ws:// URL, nor --ipc-path without --http2");
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw usage(
                    "Invalid value for option '--concurrency': '" + concurrency + "' is not 1 to " + MAX_CONCURRENCY);
        }
        if (capabilities && (ipcPath != null || url.regionMatches(true, 0, "ws:", 0, 3))) {
            throw usage("--capabilities is over HTTP: not with a ws:// URL or --ipc-path");
        }
        if (timeout < 1) {
            throw usage("Invalid value for option '--timeout': '" + timeout + "' is not at least 1");
        }
        if (repeat < 1) {
            throw usage("Invalid value for option '--repeat': '" + repeat + "' is not at least 1");
        }
        if (verify && method.answersCells()) {
            throw usage("--verify checks blobs, and engine_getBlobsV4 answers cells: no commitment to check them by");
        }
        if (cells != null && !method.answersCells()) {
            throw usage("--cells is engine_getBlobsV4's indices_bitarray, not " + method.methodName() + "'s");
        }
        byte[] bitarray = cells != null ? bitarray(cells) : method.answersCells() ? allCells() : null;
        return new GetBlobsCall(method, hashList(), bitarray);
    }

    /** {@code --cells}: 16 bytes of {@code DATA}. */
    private byte[] bitarray(String text) {
        try {
            return HexDecoder.decode(text, CellIndices.BITARRAY_SIZE);
        } catch (HexFormatException e) {
            throw usage(
                    "Invalid value for option '--cells': '" + text + "' is not 16 bytes of DATA: " + e.getMessage());
        }
    }

    private static byte[] allCells() {
        byte[] all = new byte[CellIndices.BITARRAY_SIZE];
        Arrays.fill(all, (byte) 0xFF);
        return all;
    }

    /** Checks {@code --url}: an {@code http://} or a {@code ws://} URL. */
    private void endpoint() {
        try {
            if (url.regionMatches(true, 0, "ws:", 0, 3)) {
                MessageClient.webSocketUrl(url);
            } else {
                EndpointUrl.parse(url);
            }
        } catch (IllegalArgumentException e) {
            throw usage("Invalid value for option '--url': " + e.getMessage());
        }
    }

    private List<VersionedHash> hashList() {
        if (hashes.values != null) {
            return hashes.values;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(hashes.file);
        } catch (IOException e) {
            throw usage("--hashes " + hashes.file + ": " + (e instanceof NoSuchFileException ? "no such file" : e));
        }
        List<VersionedHash> list = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (!line.isEmpty()) {
                try {
                    list.add(VersionedHash.decode(line));
                } catch (HexFormatException e) {
                    throw usage("--hashes " + hashes.file + ": line " + (i + 1) + " is not a versioned hash: "
                            + e.getMessage());
                }
            }
        }
        return list;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static String reason(Exception e) {
        return e instanceof NoSuchFileException
                ? "no such file"
                : e instanceof AccessDeniedException
                        ? "not permitted"
                        : e instanceof IllegalArgumentException ? e.getMessage() : e.toString();
    }

    /** A failed response in one line: the client's own messages, or what ended the connection. */
    static String describe(Throwable cause) {
        if (cause instanceof ClosedChannelException || cause instanceof PrematureChannelClosureException) {
            return "connection closed before the response ended";
        }
        if (cause instanceof IOException && cause.getMessage() != null) {
            return cause.getMessage();
        }
        return cause.getMessage() != null && cause.getClass().getPackageName().startsWith("io.hexstream")
                ? cause.getMessage()
                : cause.toString();
    }

    /** {@code --method}: a getBlobs method's name. */
    static final class MethodName implements ITypeConverter<BlobsMethod> {
        @Override
        public BlobsMethod convert(String value) {
            try {
                return BlobsMethod.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not engine_getBlobsV1, V2, V3 or V4");
            }
        }
    }

    /** {@code --hash}: 32 bytes of {@code DATA}. */
    static final class HashValue implements ITypeConverter<VersionedHash> {
        @Override
        public VersionedHash convert(String value) {
            try {
                return VersionedHash.decode(value);
            } catch (HexFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a versioned hash: " + e.getMessage());
            }
        }
    }
}
