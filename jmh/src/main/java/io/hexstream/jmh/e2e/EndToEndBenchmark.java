package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
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
import java.util.function.Supplier;

/**
 * {@code engine_getBlobsV2} end to end over loopback: the example server in-process, on a pool of
 * 128 real-KZG blobs (generated once into the data dir, then reused), answering keep-alive clients
 * that read whole responses. Three response modes behind the server's {@link ResponseRenderer}:
 * {@code hexstream} (the product), {@code jacksonStrings} (Besu today) and {@code prerendered} (the
 * transport floor). Writes {@code e2e.md}, {@code e2e-p50.png} and {@code e2e-heap.png}.
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -Xmx8g -cp jmh/target/hexstream-jmh.jar \
 *     io.hexstream.jmh.e2e.EndToEndBenchmark [--out jmh/results] [--data-dir hexstream-data-e2e] [--seconds 3]
 *     [--modes hexstream,jacksonStrings,prerendered] [--blobs 1,9,21,72,128] [--clients 1,4,16]
 * </pre>
 */
public final class EndToEndBenchmark {
    static final int[] BLOBS = {1, 9, 21, 72, 128};
    static final int[] CLIENTS = {1, 4, 16};

    /** One response mode: its name and a fresh renderer. */
    record Mode(String name, Supplier<ResponseRenderer> renderer) {}

    static final List<Mode> MODES = List.of(new Mode("hexstream", () -> ResponseRenderer.streaming(new ResponseWriter())),
            new Mode("jacksonStrings", JacksonStringsRenderer::new), new Mode("prerendered", PrerenderedRenderer::new));

    /** One cell of the matrix. */
    record Cell(String mode, int blobs, int clients, double p50Millis, double p99Millis, double responsesPerSecond,
            double megabytesPerSecond, long heapPerRequest, long peakDirect) {}

    private EndToEndBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of("jmh", "results");
        Path dataDir = Path.of("hexstream-data-e2e");
        double seconds = 3;
        List<String> modes = MODES.stream().map(Mode::name).toList();
        int[] blobCounts = BLOBS;
        int[] clientCounts = CLIENTS;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--modes" -> modes = List.of(args[++i].split(","));
                case "--blobs" -> blobCounts = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--clients" -> clientCounts = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(out);
        long started = System.nanoTime();
        List<Cell> cells = new ArrayList<>();
        Map<String, byte[]> digests = new LinkedHashMap<>();
        try (MemoryProbe memory = new MemoryProbe()) {
            for (Mode mode : MODES) {
                if (!modes.contains(mode.name())) {
                    continue;
                }
                ResponseRenderer renderer = mode.renderer().get();
                try (ExampleServer server = ExampleServer.start(ExampleServer.Config.builder().port(0).dataDir(dataDir)
                        .generate(128).fork(Fork.OSAKA).build(), renderer, Clock.systemUTC())) {
                    JwtAuthenticator tokens = new JwtAuthenticator(server.secret().bytes(), Clock.systemUTC());
                    List<VersionedHash> hashes = server.pool().hashes().subList(0, 128);
                    digests.put(mode.name(), verify(server, tokens, hashes));
                    for (int blobs : blobCounts) {
                        for (int clients : clientCounts) {
                            Cell cell = run(mode.name(), server, tokens, hashes.subList(0, blobs), clients, seconds, memory);
                            System.out.println(cell);
                            cells.add(cell);
                        }
                    }
                } finally {
                    if (renderer instanceof AutoCloseable closeable) {
                        closeable.close();
                    }
                }
            }
        }
        byte[] first = digests.values().iterator().next();
        for (var digest : digests.entrySet()) {
            if (!Arrays.equals(digest.getValue(), first)) {
                throw new IllegalStateException("the modes answered different bytes: " + digests.keySet());
            }
        }
        String jdk = System.getProperty("java.version");
        String markdown = Report.markdown(cells, jdk, seconds, (System.nanoTime() - started) / 1e9);
        Files.writeString(out.resolve("e2e.md"), markdown);
        Report.charts(cells, jdk, out.resolve("e2e-p50.png"), out.resolve("e2e-heap.png"));
        System.out.println(markdown);
        System.out.println("written to " + out.resolve("e2e.md") + ", e2e-p50.png, e2e-heap.png");
    }

    static String body(List<VersionedHash> hashes) {
        StringBuilder json = new StringBuilder("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"engine_getBlobsV2\",\"params\":[[");
        for (int i = 0; i < hashes.size(); i++) {
            json.append(i == 0 ? "\"" : ",\"").append(hashes.get(i)).append('"');
        }
        return json.append("]]}").toString();
    }

    /**
     * Untimed: one 128-blob response parsed with Jackson, each blob and proof checked against the
     * pool; returns the body's SHA-256 (every mode must answer the same bytes).
     */
    static byte[] verify(ExampleServer server, JwtAuthenticator tokens, List<VersionedHash> hashes) throws Exception {
        try (LoopbackClient client = new LoopbackClient(server.address())) {
            byte[] body = client.fetch(LoopbackClient.request(tokens.token(), body(hashes)));
            JsonNode result = new ObjectMapper().readTree(body).get("result");
            for (int i = 0; i < hashes.size(); i++) {
                BlobEntry entry = server.pool().get(hashes.get(i));
                if (!Arrays.equals(entry.blob(), HexDecoder.decode(result.get(i).get("blob").asText()))
                        || !result.get(i).get("proofs").get(127).asText().equals("0x" + HexFormat.of()
                                .formatHex(entry.cellProofs(), 127 * 48, 128 * 48))) {
                    throw new IllegalStateException("blob " + i + " is not what the pool holds");
                }
            }
            return MessageDigest.getInstance("SHA-256").digest(body);
        }
    }

    static Cell run(String mode, ExampleServer server, JwtAuthenticator tokens, List<VersionedHash> hashes,
            int clients, double seconds, MemoryProbe memory) throws Exception {
        byte[] request = LoopbackClient.request(tokens.token(), body(hashes));
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<LoopbackClient> connections = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                connections.add(new LoopbackClient(server.address()));
            }
            drive(pool, connections, request, Math.max(0.5, seconds / 3)); // warm-up
            System.gc();
            memory.resetPeak();
            long heapBefore = MemoryProbe.ioThreadsAllocatedBytes();
            long start = System.nanoTime();
            List<Samples> perClient = drive(pool, connections, request, seconds);
            double wall = (System.nanoTime() - start) / 1e9;
            long heap = MemoryProbe.ioThreadsAllocatedBytes() - heapBefore;
            for (LoopbackClient connection : connections) {
                connection.close();
            }
            long[] latencies = perClient.stream().flatMapToLong(s -> Arrays.stream(s.latencies())).sorted().toArray();
            long bytes = perClient.stream().mapToLong(Samples::bytes).sum();
            return new Cell(mode, hashes.size(), clients, percentile(latencies, 0.50) / 1e6,
                    percentile(latencies, 0.99) / 1e6, latencies.length / wall, bytes / wall / 1e6,
                    heap / latencies.length, memory.peakDirect());
        } finally {
            pool.shutdownNow();
        }
    }

    /** One client's times to last byte (ns) and body bytes read. */
    record Samples(long[] latencies, long bytes) {}

    /** Every client sends requests back to back for {@code seconds} (at least one each). */
    private static List<Samples> drive(ExecutorService pool, List<LoopbackClient> connections, byte[] request,
            double seconds) throws Exception {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Future<Samples>> futures = new ArrayList<>();
        for (LoopbackClient connection : connections) {
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
