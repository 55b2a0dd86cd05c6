package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.auth.JwtSecret;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code engine_getBlobsV2}, and with {@code --shapes} {@code engine_getBlobsV4} ({@link RequestShape}: 8 or 128 cells
 * a blob), end to end over loopback. Each server runs in a JVM of its own ({@link E2eServer}) on the same pool of
 * {@value #POOL_BLOBS} real-KZG blobs (generated once into the data dir, then reused; each server serves its own copy,
 * {@code DATA_DIR-NAME/}, where its log is too): {@code hexstream-portable} (the product on a plain JVM: the portable
 * kernel), {@code hexstream-vector} (the product with {@code --add-modules jdk.incubator.vector}; both with the hex
 * cache off, so every response is encoded), {@code hexstream-cache} (the product answering from its hex cache, which
 * holds the whole pool's digits, on the portable kernel), {@code hexstream-vector-cache} (the same with the Vector API:
 * the launcher's defaults), {@code hexstream-vector-metrics} ({@code hexstream-vector} with metrics on, scraped once a
 * second: {@link MetricsRatio} sets its cells beside {@code hexstream-vector}'s), {@code prerendered} (the exact bytes
 * rendered once, written from one direct buffer: the transport floor), {@code besuStreaming} (Besu's path,
 * {@link BesuLikeServer}: Besu main's values streamed through Jackson as chunked HTTP), {@code hexstream-ssz-v2} (the
 * product asked over binary SSZ, {@code POST /engine/v1/blobs/v2}: the same blobs and proofs as
 * {@code BlobsV2Response}, half the bytes, checked on its own; shape {@code v2} only), {@code hexstream-ssz-v4x8}
 * ({@code POST /engine/v1/blobs/v4} of the {@code v4x8} cells; shape {@code v4x8} only) and, if asked for,
 * {@code sendfile} ({@code prerendered}'s bytes from a file per request shape, sent with {@code sendfile(2)} as a file
 * region: {@link SendfileRenderer}) and {@code besuWholeBody} (the same values serialised whole). Clients read whole
 * responses on keep-alive connections or on a fresh connection per request (the connect counted); the product's JSON
 * servers ({@code hexstream-*}) are also asked over a WebSocket ({@code ws}, {@link WebSocketLoopbackClient}) and over
 * IPC ({@code ipc}, {@link IpcLoopbackClient}), one connection per client, their replies checked to be HTTP's bytes;
 * the product's servers, JSON and SSZ ({@code hexstream-*}), also over HTTP/2 with prior knowledge
 * ({@link H2cLoopbackClient}): {@code h2c}, one connection per client, one stream at a time, and {@code h2c-shared},
 * every client's streams on one connection, the replies checked to be HTTP/1.1's bytes. Before timing, one 128-blob
 * response of each server is parsed and checked against the pool, and all servers must answer the same bytes. Per cell:
 * time to last byte, throughput, heap allocated by the server's threads per request, CPU time of the server's threads
 * per request, the server's peak direct memory, and the p50 as a multiple of {@code prerendered}'s and as a speed-up
 * over {@code besuStreaming}'s; for the WebSocket, IPC and HTTP/2 cells, their p50 and heap per request as multiples of
 * keep-alive HTTP/1.1's, and for HTTP/2 the DATA frames per request and the heap per frame ({@link Report#transports}).
 * Writes {@code e2e.md}, {@code e2e-p50.png} and {@code e2e-heap.png}.
 *
 * <pre>
 * mvn -B -q -DskipTests package &amp;&amp; java -cp jmh/target/hexstream-jmh.jar \
 *     io.hexstream.jmh.e2e.EndToEndBenchmark
 *     [--out target/jmh-results] [--data-dir target/hexstream-data-e2e] [--seconds 3] [--warmup SECONDS]
 *     [--h2c-windows STREAM,CONNECTION (bytes; hyper's 2097152,5242880)] [--h2c-max-frame-size BYTES (16384)]
 *     [--connections per-request,keep-alive,ws,ipc,h2c,h2c-shared]
 *     [--servers hexstream-portable,hexstream-vector,hexstream-cache,prerendered,besuStreaming,
 *                hexstream-vector-metrics,hexstream-ssz-v2,hexstream-ssz-v4x8]
 *     (also: sendfile, besuWholeBody)
 *     [--blobs 1,9,21,72,128] [--clients 1,4,16] [--shapes v2,v4x8,v4x128]
 * </pre>
 */
public final class EndToEndBenchmark {
    /** Where the reports go unless {@code --out} says otherwise: under {@code target/}, never over jmh/results. */
    static final Path OUT = Path.of("target", "jmh-results");
    /** The generated pool unless {@code --data-dir} says otherwise; the servers' copies and logs go beside it. */
    static final Path DATA_DIR = Path.of("target", "hexstream-data-e2e");
    /** Blobs in the benchmark's pool: the most one request may ask for. */
    static final int POOL_BLOBS = 128;

    static final int[] BLOBS = {1, 9, 21, 72, 128};
    static final int[] CLIENTS = {1, 4, 16};
    static final List<String> CONNECTIONS = List.of("per-request", "keep-alive", "ws", "ipc", "h2c", "h2c-shared");
    /** The connection kinds over which only the product's JSON servers are asked: WebSocket and IPC. */
    static final List<String> MESSAGE_KINDS = List.of("ws", "ipc");
    /**
     * The HTTP/2 connection kinds ({@link H2cLoopbackClient}), over which the product's servers are asked, JSON and
     * SSZ: a connection per client, or every client's streams on one connection.
     */
    static final List<String> H2_KINDS = List.of("h2c", "h2c-shared");

    static final String FLOOR = "prerendered";
    static final String PEER = "besuStreaming";
    /** The floor's bytes from files, sent with {@code sendfile(2)} ({@link SendfileRenderer}); off by default. */
    static final String SENDFILE = "sendfile";
    /** How long {@link #verifyCells} waits for a server to serve every cell. */
    static final int CELLS_WAIT_SECONDS = 120;
    /** The product asked for the same blobs over binary SSZ, {@code v2} shape only ({@link SszMode}). */
    static final String SSZ = "hexstream-ssz-v2";
    /** The product asked for the same cells over binary SSZ, {@code v4x8} shape only ({@link SszMode}). */
    static final String SSZ_V4X8 = "hexstream-ssz-v4x8";

    /** A server: its name in the tables, its {@link E2eServer} mode, and whether its JVM has the Vector API. */
    record Server(String name, String mode, boolean vector) {}

    static final List<Server> SERVERS = List.of(
            new Server("hexstream-portable", "hexstream", false),
            new Server("hexstream-vector", "hexstream", true),
            new Server("hexstream-cache", "hexstream-cache", false),
            new Server("hexstream-vector-cache", "hexstream-cache", true),
            new Server(FLOOR, "prerendered", false),
            new Server(SENDFILE, "sendfile", false),
            new Server(PEER, "besuStreaming", false),
            new Server("besuWholeBody", "besuWholeBody", false),
            new Server(MetricsRatio.ON, "hexstreamMetrics", true),
            new Server(SSZ, "ssz", false),
            new Server(SSZ_V4X8, "ssz", false));

    /** One cell of the matrix. */
    record Cell(
            String server,
            String kernel,
            String connections,
            int blobs,
            int clients,
            double p50Millis,
            double p99Millis,
            double responsesPerSecond,
            double megabytesPerSecond,
            long heapPerRequest,
            long peakDirect,
            String shape,
            long cpuNanosPerRequest,
            double dataFramesPerRequest) {}

    private EndToEndBenchmark() {}

    /** The options (see the class comment), each default once. */
    record Options(
            Path out,
            Path dataDir,
            double seconds,
            double warmup,
            H2cLoopbackClient.Settings h2Settings,
            List<String> servers,
            List<String> connections,
            int[] blobCounts,
            int[] clientCounts,
            List<RequestShape> shapes) {

        static Options parse(String[] args) {
            Path out = OUT;
            Path dataDir = DATA_DIR;
            double seconds = 3;
            double warmup = -1;
            H2cLoopbackClient.Settings h2Settings = H2cLoopbackClient.Settings.HYPER;
            List<String> servers = List.of(
                    "hexstream-portable",
                    "hexstream-vector",
                    "hexstream-cache",
                    FLOOR,
                    PEER,
                    MetricsRatio.ON,
                    SSZ,
                    SSZ_V4X8);
            List<String> connections = CONNECTIONS;
            int[] blobCounts = BLOBS;
            int[] clientCounts = CLIENTS;
            List<RequestShape> shapes = List.of(RequestShape.V2);
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--out" -> out = Path.of(args[++i]);
                    case "--data-dir" -> dataDir = Path.of(args[++i]);
                    case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                    case "--warmup" -> warmup = Double.parseDouble(args[++i]);
                    case "--h2c-windows" -> h2Settings = h2Settings.withWindows(args[++i]);
                    case "--h2c-max-frame-size" ->
                        h2Settings = h2Settings.withMaxFrameSize(Integer.parseInt(args[++i]));
                    case "--servers" -> servers = List.of(args[++i].split(","));
                    case "--connections" -> connections = List.of(args[++i].split(","));
                    case "--blobs" -> blobCounts = counts(args[++i]);
                    case "--clients" -> clientCounts = counts(args[++i]);
                    case "--shapes" ->
                        shapes = Arrays.stream(args[++i].split(","))
                                .map(RequestShape::named)
                                .toList();
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(
                    out,
                    dataDir,
                    seconds,
                    warmup < 0 ? defaultWarmup(seconds) : warmup,
                    h2Settings,
                    servers,
                    connections,
                    blobCounts,
                    clientCounts,
                    shapes);
        }

        /** A comma-separated list of counts, e.g. {@code 1,4,16}. */
        static int[] counts(String list) {
            return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Files.createDirectories(options.out());
        long started = System.nanoTime();
        // The pool is generated (once) in dataDir; each server gets a copy, since a server locks its data dir
        // and all of them run at once: the cells of one shape run on each server in turn, so that the
        // machine's drift over the run falls on all of them alike.
        // Copies and logs beside the data dir (target/hexstream-data-e2e-NAME/), not among the results.
        E2ePool pool = E2ePool.prepare(options.dataDir());
        Map<Server, ServerJvm> jvms = new LinkedHashMap<>();
        Map<String, byte[]> digests = new LinkedHashMap<>();
        List<Cell> cells;
        try {
            startAndVerify(options, pool, jvms, digests);
            cells = runCells(options, pool, jvms);
        } finally {
            for (ServerJvm jvm : jvms.values()) {
                jvm.close();
            }
        }
        List<String> order = jvms.keySet().stream().map(Server::name).toList();
        cells.sort(java.util.Comparator.comparingInt((Cell c) -> order.indexOf(c.server())));
        checkSameBytes(options.shapes(), digests);
        writeReport(options, cells, started);
    }

    /**
     * Starts each server asked for (in {@link #SERVERS}' order) on its own copy of the pool, into {@code jvms} as it
     * starts, and verifies one response of each shape it serves.
     */
    private static void startAndVerify(
            Options options, E2ePool pool, Map<Server, ServerJvm> jvms, Map<String, byte[]> digests) throws Exception {
        Path dataDir = options.dataDir();
        for (Server server : SERVERS) {
            if (!options.servers().contains(server.name())
                    || options.shapes().stream().noneMatch(shape -> serves(server, shape))) {
                continue;
            }
            Path copy = copyPool(dataDir, dataDir.resolveSibling(dataDir.getFileName() + "-" + server.name()));
            ServerJvm jvm = ServerJvm.start(
                    server.mode(), server.vector(), copy, copy.toAbsolutePath().resolve("server.log"));
            jvms.put(server, jvm);
            for (RequestShape shape : options.shapes()) {
                if (serves(server, shape)) {
                    verify(options, pool, server, jvm, shape, digests);
                }
            }
        }
    }

    /**
     * Verifies {@code server}'s response of {@code shape}, its body's SHA-256 into {@code digests} with those of the
     * message kinds asked for (the SSZ server's is checked on its own); with an HTTP/2 kind asked for, its h2c reply is
     * checked to be its HTTP/1.1 reply.
     */
    private static void verify(
            Options options,
            E2ePool pool,
            Server server,
            ServerJvm jvm,
            RequestShape shape,
            Map<String, byte[]> digests)
            throws Exception {
        if (sszShape(server.name()) != null) {
            SszMode.verify(jvm, pool.tokens(), pool.hashes(), options.dataDir(), shape);
        } else {
            digests.put(
                    server.name() + " " + shape.name(),
                    verify(jvm, pool.tokens(), pool.hashes(), options.dataDir(), shape));
            for (String kind : options.connections()) {
                if (MESSAGE_KINDS.contains(kind) && serves(server, kind)) {
                    try (EngineConnection connection = connect(kind, jvm, pool.tokens())) {
                        byte[] reply = connection.fetch(request(kind, pool.tokens(), shape.body(pool.hashes())));
                        digests.put(
                                server.name() + " " + kind + " " + shape.name(),
                                MessageDigest.getInstance("SHA-256").digest(reply));
                    }
                }
            }
        }
        if (options.connections().stream().anyMatch(H2_KINDS::contains) && serves(server, H2_KINDS.get(0))) {
            checkH2cReply(server.name(), jvm, pool.tokens(), pool.hashes(), shape, options.h2Settings());
        }
    }

    /**
     * Throws unless {@code server} answers the request of {@code hashes} over h2c, to a client advertising
     * {@code h2Settings}, with the bytes it answers over HTTP/1.1.
     */
    private static void checkH2cReply(
            String server,
            ServerJvm jvm,
            JwtAuthenticator tokens,
            List<VersionedHash> hashes,
            RequestShape shape,
            H2cLoopbackClient.Settings h2Settings)
            throws Exception {
        byte[] request = request(server, "keep-alive", tokens, hashes, shape);
        try (LoopbackClient http = new LoopbackClient(jvm.address(), false);
                H2cLoopbackClient h2 = H2cLoopbackClient.connect(jvm.address(), h2Settings)) {
            if (!Arrays.equals(h2.fetch(request), http.fetch(request))) {
                throw new IllegalStateException(server + " answered " + shape.name() + " over h2c with other bytes");
            }
        }
    }

    /** Runs every cell of the matrix, each server in turn within one combination; prints each as it ends. */
    private static List<Cell> runCells(Options options, E2ePool pool, Map<Server, ServerJvm> jvms) throws Exception {
        List<Cell> cells = new ArrayList<>();
        for (String connection : options.connections()) {
            for (RequestShape shape : options.shapes()) {
                for (int blobs : options.blobCounts()) {
                    for (int clients : options.clientCounts()) {
                        for (var server : jvms.entrySet()) {
                            if (!serves(server.getKey(), shape) || !serves(server.getKey(), connection)) {
                                continue;
                            }
                            Cell cell = run(
                                    server.getKey().name(),
                                    server.getValue(),
                                    pool.tokens(),
                                    pool.hashes().subList(0, blobs),
                                    clients,
                                    connection,
                                    options.seconds(),
                                    options.warmup(),
                                    options.h2Settings(),
                                    shape);
                            System.out.println(cell);
                            cells.add(cell);
                        }
                    }
                }
            }
        }
        return cells;
    }

    /** Throws unless every server answered each shape with the same bytes. */
    private static void checkSameBytes(List<RequestShape> shapes, Map<String, byte[]> digests) {
        for (RequestShape shape : shapes) {
            byte[] first = null;
            for (var digest : digests.entrySet()) {
                if (digest.getKey().endsWith(" " + shape.name())) {
                    first = first == null ? digest.getValue() : first;
                    if (!Arrays.equals(digest.getValue(), first)) {
                        throw new IllegalStateException(
                                "the servers answered " + shape.name() + " with different bytes: " + digests.keySet());
                    }
                }
            }
        }
    }

    /** Writes {@code e2e.md} and the two charts into {@code --out}, and prints the tables. */
    private static void writeReport(Options options, List<Cell> cells, long started) throws java.io.IOException {
        Path out = options.out();
        String jdk = System.getProperty("java.version");
        String markdown = Report.markdown(cells, jdk, options.seconds(), (System.nanoTime() - started) / 1e9)
                + MetricsRatio.markdown(cells)
                + Report.transports(cells);
        Files.writeString(out.resolve("e2e.md"), markdown);
        Report.charts(cells, jdk, out.resolve("e2e-p50.png"), out.resolve("e2e-heap.png"));
        System.out.println(markdown);
        System.out.println("written to " + out.resolve("e2e.md") + ", e2e-p50.png, e2e-heap.png");
    }

    /** A copy of {@code dataDir}'s pool and secret in {@code copy} (replacing an older one). */
    static Path copyPool(Path dataDir, Path copy) throws java.io.IOException {
        if (Files.exists(copy)) {
            try (var files = Files.walk(copy)) {
                for (Path file : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.delete(file);
                }
            }
        }
        Path blobs = Files.createDirectories(copy.resolve("blobs"));
        try (var files = Files.list(dataDir.resolve("blobs"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, blobs.resolve(file.getFileName()));
            }
        }
        Files.copy(dataDir.resolve(JwtSecret.DEFAULT_FILE), copy.resolve(JwtSecret.DEFAULT_FILE));
        return copy;
    }

    /**
     * Whether {@code server} runs {@code shape}: the whole-body Besu baseline asks for getBlobsV2 only, each SSZ server
     * for its own shape only.
     */
    private static boolean serves(Server server, RequestShape shape) {
        String ssz = sszShape(server.name());
        return ssz != null
                ? ssz.equals(shape.name())
                : !shape.v4() || !server.mode().equals("besuWholeBody");
    }

    /**
     * Whether {@code server} is asked over {@code connection}: WebSocket and IPC for the product's JSON servers only,
     * HTTP/2 for the product's servers, JSON and SSZ.
     */
    private static boolean serves(Server server, String connection) {
        if (H2_KINDS.contains(connection)) {
            return server.name().startsWith("hexstream");
        }
        return !MESSAGE_KINDS.contains(connection)
                || (server.mode().startsWith("hexstream") && sszShape(server.name()) == null);
    }

    /** Whether {@code connection} is HTTP/1.1: per request or keep-alive. */
    static boolean http1(String connection) {
        return connection.equals("per-request") || connection.equals("keep-alive");
    }

    /**
     * {@code clients} connections of {@code kind} to {@code server}; for {@code h2c-shared}, {@code clients} streams'
     * clients on one HTTP/2 connection.
     */
    static List<EngineConnection> open(
            String kind, ServerJvm server, JwtAuthenticator tokens, int clients, H2cLoopbackClient.Settings h2Settings)
            throws IOException {
        if (H2_KINDS.contains(kind)) {
            return H2cLoopbackClient.open(server.address(), clients, kind.equals("h2c-shared"), h2Settings);
        }
        List<EngineConnection> opened = new ArrayList<>(clients);
        try {
            for (int c = 0; c < clients; c++) {
                opened.add(connect(kind, server, tokens));
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            for (EngineConnection connection : opened) {
                connection.close();
            }
            throw e;
        }
    }

    /** A connection of {@code kind} to {@code server}: HTTP per request or keep-alive, {@code ws} or {@code ipc}. */
    static EngineConnection connect(String kind, ServerJvm server, JwtAuthenticator tokens) throws IOException {
        return switch (kind) {
            case "ws" -> new WebSocketLoopbackClient(server.address(), tokens.token());
            case "ipc" -> new IpcLoopbackClient(server.ipcPath());
            case "per-request", "keep-alive" -> new LoopbackClient(server.address(), kind.equals("per-request"));
            default -> throw new IllegalArgumentException("unknown connection kind " + kind);
        };
    }

    /**
     * The bytes {@code kind} sends for the JSON-RPC {@code json}: an HTTP request (HTTP/2 is given the HTTP/1.1 one), a
     * WebSocket frame or a line.
     */
    static byte[] request(String kind, JwtAuthenticator tokens, String json) {
        return switch (kind) {
            case "ws" -> WebSocketLoopbackClient.frame(json);
            case "ipc" -> IpcLoopbackClient.line(json);
            default -> LoopbackClient.request(tokens.token(), json, kind.equals("per-request"));
        };
    }

    /** The shape an SSZ server runs, or {@code null} for a JSON server. */
    private static String sszShape(String server) {
        return server.equals(SSZ) ? "v2" : server.equals(SSZ_V4X8) ? "v4x8" : null;
    }

    /**
     * Untimed: one 128-blob response parsed with Jackson, each blob and its last proof checked against the pool on
     * disk; returns the body's SHA-256 (every server must answer the same bytes).
     */
    static byte[] verify(
            ServerJvm server, JwtAuthenticator tokens, List<VersionedHash> hashes, Path dataDir, RequestShape shape)
            throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dataDir, POOL_BLOBS, ServerMetrics.NONE);
        if (shape.v4()) {
            return verifyCells(server, tokens, hashes, pool, shape);
        }
        try (LoopbackClient client = new LoopbackClient(server.address(), false)) {
            byte[] body = client.fetch(LoopbackClient.request(tokens.token(), RequestShape.V2.body(hashes), false));
            JsonNode result = new ObjectMapper().readTree(body).get("result");
            for (int i = 0; i < hashes.size(); i++) {
                BlobEntry entry = pool.get(hashes.get(i));
                if (!Arrays.equals(
                                entry.blob(),
                                HexDecoder.decode(result.get(i).get("blob").asText()))
                        || !result.get(i)
                                .get("proofs")
                                .get(127)
                                .asText()
                                .equals("0x" + HexFormat.of().formatHex(entry.cellProofs(), 127 * 48, 128 * 48))) {
                    throw new IllegalStateException("blob " + i + " is not what the pool holds");
                }
            }
            return MessageDigest.getInstance("SHA-256").digest(body);
        }
    }

    /**
     * {@link #verify} for a V4 shape: every asked-for cell of the 128 blobs checked against the pool
     * ({@link RequestShape#servesEveryCell}), waiting up to {@value #CELLS_WAIT_SECONDS} s for a server still computing
     * the extension cells of the pool it loaded; returns the body's SHA-256.
     */
    private static byte[] verifyCells(
            ServerJvm server,
            JwtAuthenticator tokens,
            List<VersionedHash> hashes,
            DurableBlobPool pool,
            RequestShape shape)
            throws Exception {
        List<BlobEntry> entries = hashes.stream().map(pool::get).toList();
        long deadline = System.nanoTime() + CELLS_WAIT_SECONDS * 1_000_000_000L;
        try (LoopbackClient client = new LoopbackClient(server.address(), false)) {
            while (true) {
                byte[] body = client.fetch(LoopbackClient.request(tokens.token(), shape.body(hashes), false));
                if (shape.servesEveryCell(new ObjectMapper().readTree(body).get("result"), entries)) {
                    return MessageDigest.getInstance("SHA-256").digest(body);
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(shape.name()
                            + ": the server answers null for cells 64 to 127 after "
                            + CELLS_WAIT_SECONDS + " s: its pool has no extension cells (they are computed when a blob"
                            + " enters the pool)");
                }
                Thread.sleep(1000);
            }
        }
    }

    static Cell run(
            String name,
            ServerJvm server,
            JwtAuthenticator tokens,
            List<VersionedHash> hashes,
            int clients,
            String connection,
            double seconds,
            double warmup,
            H2cLoopbackClient.Settings h2Settings,
            RequestShape shape)
            throws Exception {
        byte[] request = request(name, connection, tokens, hashes, shape);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<EngineConnection> connections = new ArrayList<>();
        try {
            connections.addAll(open(connection, server, tokens, clients, h2Settings));
            drive(pool, connections, request, warmup);
            server.ask("reset");
            long heapBefore = server.ask("heap");
            long cpuBefore = server.ask("cpu");
            long framesBefore = dataFrames(connections);
            long start = System.nanoTime();
            List<Samples> perClient = drive(pool, connections, request, seconds);
            double wall = (System.nanoTime() - start) / 1e9;
            long cpu = server.ask("cpu") - cpuBefore;
            long heap = server.ask("heap") - heapBefore;
            long frames = dataFrames(connections) - framesBefore;
            long[] latencies = perClient.stream()
                    .flatMapToLong(s -> Arrays.stream(s.latencies()))
                    .sorted()
                    .toArray();
            long bytes = perClient.stream().mapToLong(Samples::bytes).sum();
            return new Cell(
                    name,
                    server.kernel(),
                    connection,
                    hashes.size(),
                    clients,
                    percentile(latencies, 0.50) / 1e6,
                    percentile(latencies, 0.99) / 1e6,
                    latencies.length / wall,
                    bytes / wall / 1e6,
                    heap / latencies.length,
                    server.ask("peak"),
                    shape.name(),
                    cpu / latencies.length,
                    (double) frames / latencies.length);
        } finally {
            for (EngineConnection open : connections) {
                open.close();
            }
            pool.shutdownNow();
        }
    }

    /** The request {@code server} is sent over {@code connection} for {@code hashes} in {@code shape}. */
    private static byte[] request(
            String server, String connection, JwtAuthenticator tokens, List<VersionedHash> hashes, RequestShape shape) {
        return sszShape(server) != null
                ? SszMode.request(tokens.token(), hashes, shape, connection.equals("per-request"))
                : request(connection, tokens, shape.body(hashes));
    }

    /** The HTTP/2 DATA frames {@code connections} have read so far. */
    private static long dataFrames(List<EngineConnection> connections) {
        return connections.stream().mapToLong(EngineConnection::dataFrames).sum();
    }

    /** One client's times to last byte (ns) and body bytes read. */
    record Samples(long[] latencies, long bytes) {}

    /**
     * The warm-up before each cell's measurement unless {@code --warmup} says otherwise: a third of the cell's
     * {@code seconds}, at least half a second. The servers' JVMs are shared by the cells, each warmed by the cells
     * before it, but a cell whose path is new to the JVM (the first HTTP/2 cell after the HTTP/1.1 ones) has its code
     * compiled during its warm-up and, if that is short, during its measurement.
     */
    static double defaultWarmup(double seconds) {
        return Math.max(0.5, seconds / 3);
    }

    /** Every client sends requests back to back for {@code seconds} (at least one each). */
    private static List<Samples> drive(
            ExecutorService pool, List<EngineConnection> connections, byte[] request, double seconds) throws Exception {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Future<Samples>> futures = new ArrayList<>();
        for (EngineConnection connection : connections) {
            futures.add(pool.submit(() -> {
                long[] latencies = new long[64];
                long bytes = 0;
                int n = 0;
                do {
                    long t0 = System.nanoTime();
                    bytes += connection.exchange(request);
                    if (n == latencies.length) {
                        latencies = Arrays.copyOf(latencies, 2 * n);
                    }
                    latencies[n++] = System.nanoTime() - t0;
                } while (System.nanoTime() < deadline);
                return new Samples(Arrays.copyOf(latencies, n), bytes);
            }));
        }
        List<Samples> results = new ArrayList<>();
        for (Future<Samples> future : futures) {
            results.add(future.get());
        }
        return results;
    }

    static double percentile(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    static String format(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }
}
