package io.hexstream.jmh.e2e;

import io.hexstream.client.VersionedHash;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code engine_getBlobsV2} end to end over loopback in a Besu-style stack: two Vert.x HTTP servers, each in a JVM of
 * its own ({@link VertxE2eServer}), on the same pool as {@link EndToEndBenchmark} ({@link E2ePool}, each server serving
 * its own copy), with the same front ({@link VertxEngineFront}: the body parsed as Besu's JSON-RPC handlers do, the
 * method on a Vert.x worker; no JWT in any), differing only in the reply: {@code vertxHexstream} (a {@code JsonBody}
 * written by {@code VertxJsonBodyWriter}), {@code vertxBesuLike} (Besu's Strings, Jackson and chunked writes of each ~8
 * KB flush) and {@code vertxBesuHexModule} (Besu's path with {@code HexModule}, {@code Bytes} fields and the codec's
 * {@code VertxResponseOutputStream}); the hexstream servers also as {@code …-vector}, with the Vector API. Before
 * timing, a 128-blob response of each is checked against the pool and all must answer the same bytes. Per cell, as
 * {@link EndToEndBenchmark}: p50/p99 time to last byte, heap allocated by the server's threads per response, peak
 * direct memory, and the p50 speed-up over {@code vertxBesuLike}; then the acceptance at 128 blobs:
 * {@code vertxHexstream} ≥ 5× faster, ≤ 256 KiB of heap per response; {@code vertxBesuHexModule} ≥ 3× faster on the
 * portable kernel and ≥ 5× with the Vector API, its p50 within 1.3× of {@code vertxHexstream}'s on the same kernel, ≤ 2
 * % of {@code vertxBesuLike}'s heap per response. Writes {@code vertx-e2e.md}.
 *
 * <pre>
 * mvn -B -q -pl jmh -am package -DskipTests &amp;&amp; java -cp jmh/target/hexstream-jmh.jar \
 *     io.hexstream.jmh.e2e.VertxEndToEndBenchmark
 *     [--out target/jmh-results] [--data-dir target/hexstream-data-e2e] [--seconds 3]
 *     [--connections per-request,keep-alive]
 *     [--blobs 1,21,128] [--clients 1,4]
 * </pre>
 */
public final class VertxEndToEndBenchmark {
    static final String HEXSTREAM = "vertxHexstream";
    static final String PEER = "vertxBesuLike";
    static final String BESU_HEX_MODULE = "vertxBesuHexModule";
    /** The hexstream servers, on the portable kernel and with the Vector API, then the peer. */
    static final List<EndToEndBenchmark.Server> SERVERS = List.of(
            new EndToEndBenchmark.Server(HEXSTREAM, HEXSTREAM, false),
            new EndToEndBenchmark.Server(HEXSTREAM + "-vector", HEXSTREAM, true),
            new EndToEndBenchmark.Server(BESU_HEX_MODULE, BESU_HEX_MODULE, false),
            new EndToEndBenchmark.Server(BESU_HEX_MODULE + "-vector", BESU_HEX_MODULE, true),
            new EndToEndBenchmark.Server(PEER, PEER, false));
    /** The acceptance: at least this many times faster than the peer at 128 blobs... */
    static final double MIN_SPEED_UP = 5;
    /** ...allocating at most this much heap per response. */
    static final long MAX_HEAP_PER_RESPONSE = 256 * 1024;
    /** {@code vertxBesuHexModule}: at least this many times faster than the peer on the portable kernel... */
    static final double MIN_HEX_MODULE_SPEED_UP = 3;
    /** ...and with the Vector API... */
    static final double MIN_HEX_MODULE_SPEED_UP_VECTOR = 5;
    /** ...its p50 at most this multiple of {@code vertxHexstream}'s on the same kernel... */
    static final double MAX_HEX_MODULE_OVER_HEXSTREAM = 1.3;
    /** ...allocating at most this share of the peer's heap per response. */
    static final double MAX_HEX_MODULE_HEAP_SHARE = 0.02;

    private VertxEndToEndBenchmark() {}

    /** The options (see the class comment), each default once. */
    record Options(
            Path out, Path dataDir, double seconds, List<String> connections, int[] blobCounts, int[] clientCounts) {

        static Options parse(String[] args) {
            Path out = EndToEndBenchmark.OUT;
            Path dataDir = EndToEndBenchmark.DATA_DIR;
            double seconds = 3;
            List<String> connections = EndToEndBenchmark.CONNECTIONS;
            int[] blobCounts = {1, 21, 128};
            int[] clientCounts = {1, 4};
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--out" -> out = Path.of(args[++i]);
                    case "--data-dir" -> dataDir = Path.of(args[++i]);
                    case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                    case "--connections" -> connections = List.of(args[++i].split(","));
                    case "--blobs" -> blobCounts = EndToEndBenchmark.Options.counts(args[++i]);
                    case "--clients" -> clientCounts = EndToEndBenchmark.Options.counts(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(out, dataDir, seconds, connections, blobCounts, clientCounts);
        }
    }

    /** Runs the matrix the options choose (see the class comment) and writes its report. */
    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        Files.createDirectories(options.out());
        long started = System.nanoTime();
        E2ePool pool = E2ePool.prepare(options.dataDir());
        Map<String, ServerJvm> jvms = new LinkedHashMap<>();
        List<EndToEndBenchmark.Cell> cells;
        try {
            startAndVerify(options.dataDir(), pool, jvms);
            cells = runCells(options, pool, jvms);
        } finally {
            for (ServerJvm jvm : jvms.values()) {
                jvm.close();
            }
        }
        List<String> order =
                SERVERS.stream().map(EndToEndBenchmark.Server::name).toList();
        cells.sort(Comparator.comparingInt((EndToEndBenchmark.Cell c) -> order.indexOf(c.server())));
        String markdown = Report.markdown(
                        "engine_getBlobsV2 end to end in Vert.x " + vertxVersion() + " over loopback",
                        null,
                        PEER,
                        cells,
                        System.getProperty("java.version"),
                        options.seconds(),
                        (System.nanoTime() - started) / 1e9)
                + "\n" + acceptance(cells);
        Files.writeString(options.out().resolve("vertx-e2e.md"), markdown);
        System.out.println(markdown);
        System.out.println("written to " + options.out().resolve("vertx-e2e.md"));
    }

    /**
     * Starts each of {@link #SERVERS} on its own copy of the pool, into {@code jvms} as it starts, checks a 128-blob
     * response of each against the pool, and throws unless all answered the same bytes.
     */
    private static void startAndVerify(Path dataDir, E2ePool pool, Map<String, ServerJvm> jvms) throws Exception {
        Map<String, byte[]> digests = new LinkedHashMap<>();
        for (EndToEndBenchmark.Server server : SERVERS) {
            Path copy = EndToEndBenchmark.copyPool(
                    dataDir, dataDir.resolveSibling(dataDir.getFileName() + "-" + server.name()));
            ServerJvm jvm = ServerJvm.start(
                    VertxE2eServer.class,
                    server.mode(),
                    server.vector(),
                    copy,
                    copy.toAbsolutePath().resolve("server.log"));
            jvms.put(server.name(), jvm);
            digests.put(
                    server.name(),
                    EndToEndBenchmark.verify(jvm, pool.tokens(), pool.hashes(), dataDir, RequestShape.V2));
        }
        for (byte[] digest : digests.values()) {
            if (!Arrays.equals(digest, digests.get(PEER))) {
                throw new IllegalStateException("the servers answered different bytes");
            }
        }
    }

    /**
     * Runs every cell of the matrix; the cells of one combination run on each server in turn, so that drift falls on
     * both alike. Prints each as it ends.
     */
    private static List<EndToEndBenchmark.Cell> runCells(Options options, E2ePool pool, Map<String, ServerJvm> jvms)
            throws Exception {
        List<VersionedHash> hashes = pool.hashes();
        List<EndToEndBenchmark.Cell> cells = new ArrayList<>();
        for (String connection : options.connections()) {
            if (!EndToEndBenchmark.http1(connection)) {
                continue; // the Vert.x fronts serve HTTP/1.1 only
            }
            for (int blobs : options.blobCounts()) {
                for (int clients : options.clientCounts()) {
                    for (var server : jvms.entrySet()) {
                        EndToEndBenchmark.Cell cell = EndToEndBenchmark.run(
                                server.getKey(),
                                server.getValue(),
                                pool.tokens(),
                                hashes.subList(0, blobs),
                                clients,
                                connection,
                                options.seconds(),
                                EndToEndBenchmark.defaultWarmup(options.seconds()),
                                H2cLoopbackClient.Settings.HYPER, // HTTP/1.1 only: no HTTP/2 settings
                                RequestShape.V2);
                        System.out.println(cell);
                        cells.add(cell);
                    }
                }
            }
        }
        return cells;
    }

    /** The acceptance, line by line, for every 128-blob cell of the hexstream servers. */
    static String acceptance(List<EndToEndBenchmark.Cell> cells) {
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "Acceptance at 128 blobs: `%s` ≥ %.0f× faster than `%s` (p50), ≤ %s of heap per response.%n%n",
                HEXSTREAM,
                MIN_SPEED_UP,
                PEER,
                Report.bytes(MAX_HEAP_PER_RESPONSE)));
        for (EndToEndBenchmark.Cell c : cells) {
            if (!c.server().startsWith(HEXSTREAM) || c.blobs() != 128) {
                continue;
            }
            Report.same(cells, c, PEER).ifPresent(peer -> {
                double speedUp = peer.p50Millis() / c.p50Millis();
                md.append(String.format(
                        Locale.ROOT,
                        "- `%s`, %s, %d client(s): %.2f× (%s), %s per response (%s)%n",
                        c.server(),
                        c.connections(),
                        c.clients(),
                        speedUp,
                        met(speedUp >= MIN_SPEED_UP),
                        Report.bytes(c.heapPerRequest()),
                        met(c.heapPerRequest() <= MAX_HEAP_PER_RESPONSE)));
            });
        }
        return md.append('\n').append(hexModuleAcceptance(cells)).toString();
    }

    /** {@code vertxBesuHexModule}'s acceptance, for every 128-blob cell of it (the acceptance's are per-request). */
    static String hexModuleAcceptance(List<EndToEndBenchmark.Cell> cells) {
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "Acceptance at 128 blobs, a connection per request: `%s` ≥ %.0f× faster than `%s` (p50) on the portable"
                        + " kernel, ≥ %.0f× with the Vector API; its p50 ≤ %.1f× `%s`'s on the same kernel; heap per"
                        + " response ≤ %.0f %% of `%s`'s.%n%n",
                BESU_HEX_MODULE,
                MIN_HEX_MODULE_SPEED_UP,
                PEER,
                MIN_HEX_MODULE_SPEED_UP_VECTOR,
                MAX_HEX_MODULE_OVER_HEXSTREAM,
                HEXSTREAM,
                MAX_HEX_MODULE_HEAP_SHARE * 100,
                PEER));
        for (EndToEndBenchmark.Cell c : cells) {
            if (!c.server().startsWith(BESU_HEX_MODULE) || c.blobs() != 128) {
                continue;
            }
            String suffix = c.server().substring(BESU_HEX_MODULE.length());
            var peer = Report.same(cells, c, PEER);
            var hexstream = Report.same(cells, c, HEXSTREAM + suffix);
            if (peer.isEmpty() || hexstream.isEmpty()) {
                continue;
            }
            double speedUp = peer.get().p50Millis() / c.p50Millis();
            double minSpeedUp = suffix.isEmpty() ? MIN_HEX_MODULE_SPEED_UP : MIN_HEX_MODULE_SPEED_UP_VECTOR;
            double overHexstream = c.p50Millis() / hexstream.get().p50Millis();
            double heapShare = (double) c.heapPerRequest() / peer.get().heapPerRequest();
            md.append(String.format(
                    Locale.ROOT,
                    "- `%s`, %s, %d client(s): %.2f× (%s), %.2f× `%s`'s p50 (%s), %s per response, %.3f %% (%s)%n",
                    c.server(),
                    c.connections(),
                    c.clients(),
                    speedUp,
                    met(speedUp >= minSpeedUp),
                    overHexstream,
                    HEXSTREAM + suffix,
                    met(overHexstream <= MAX_HEX_MODULE_OVER_HEXSTREAM),
                    Report.bytes(c.heapPerRequest()),
                    heapShare * 100,
                    met(heapShare <= MAX_HEX_MODULE_HEAP_SHARE)));
        }
        return md.toString();
    }

    private static String met(boolean met) {
        return met ? "met" : "not met";
    }

    /** The Vert.x on the class path, as its jar states it. */
    private static String vertxVersion() throws IOException {
        try (InputStream version =
                VertxEndToEndBenchmark.class.getResourceAsStream("/META-INF/vertx/vertx-version.txt")) {
            return version == null ? "4.5" : new String(version.readAllBytes(), StandardCharsets.US_ASCII).trim();
        }
    }
}
