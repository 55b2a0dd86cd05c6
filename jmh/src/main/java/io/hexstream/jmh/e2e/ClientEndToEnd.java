package io.hexstream.jmh.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.BlobsListener;
import io.hexstream.client.BlobsMethod;
import io.hexstream.client.BlobsOutcome;
import io.hexstream.client.EndpointUrl;
import io.hexstream.client.GetBlobsCall;
import io.hexstream.client.GetBlobsClient;
import io.hexstream.client.JwtSigner;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.Hex;
import io.hexstream.jmh.GetBlobsResponseReadBenchmark;
import io.hexstream.jmh.GetBlobsResponseReadBenchmark.TekuBlobAndProofV2;
import io.hexstream.jmh.TekuShapedDeserializer;
import io.hexstream.server.auth.JwtSecret;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The receiving side end to end: one {@code engine_getBlobsV2} response of {@code --blobs} blobs (128 by default,
 * cycling through a pool of {@value #POOL} real-KZG blobs: 35 MB of JSON) from the example server (a JVM of its own,
 * with the Vector API and its hex cache) over loopback, read on a kept-alive connection, one request at a time, three
 * ways:
 *
 * <ul>
 *   <li>{@code plainRead}: a socket read of the whole response, discarded ({@link LoopbackClient}): the floor;
 *   <li>{@code probeClient}: the probe's client ({@link GetBlobsClient}), each entry decoded into pooled direct buffers
 *       and handed over (here released) as soon as its last byte is decoded;
 *   <li>{@code tekuWholeBody}: the whole body read into an array, then Teku's path
 *       ({@link GetBlobsResponseReadBenchmark#tekuRead}: Teku's mapper, {@code readTree} and {@code treeToValue} into
 *       {@link TekuBlobAndProofV2} whose fields use Teku's {@code getTextCharacters()} deserializer,
 *       {@link TekuShapedDeserializer}); its first blob is its last.
 * </ul>
 *
 * Times run from just before the request is sent; rounds interleave the three clients, each started after a
 * {@code System.gc()} so that none pays for another's garbage. Prints a table of p50 and p99 and the acceptance ratios
 * (first blob within 15 % of the time to last byte; last blob within 1.2× the plain read), and writes it to
 * {@code OUT/client-e2e.md}.
 *
 * <pre>
 * mvn -B -q -DskipTests package &amp;&amp; java -Xms2g -Xmx2g -XX:+AlwaysPreTouch --add-modules jdk.incubator.vector \
 *     -cp jmh/target/hexstream-jmh.jar \
 *     io.hexstream.jmh.e2e.ClientEndToEnd [--data-dir target/hexstream-data-client] [--out target/jmh-results] \
 *     [--blobs 128] [--warmup 10] [--rounds 30]
 * </pre>
 */
public final class ClientEndToEnd {
    /** Distinct blobs the server generates (once, into the data dir); a request cycles through them. */
    static final int POOL = 8;

    private static final long START_TIMEOUT_S = 600;

    private ClientEndToEnd() {}

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of("target", "hexstream-data-client");
        Path out = EndToEndBenchmark.OUT;
        int blobs = 128;
        int warmup = 10;
        int rounds = 30;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--blobs" -> blobs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(dataDir);
        Files.deleteIfExists(dataDir.resolve("hashes.txt")); // the server writes it anew once it serves its pool
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Process server = startServer(dataDir, port);
        try {
            List<VersionedHash> pool = awaitPool(dataDir, server);
            List<VersionedHash> hashes = new ArrayList<>();
            for (int i = 0; i < blobs; i++) {
                hashes.add(pool.get(i % pool.size()));
            }
            byte[] secret =
                    JwtSecret.read(dataDir.resolve(JwtSecret.DEFAULT_FILE)).bytes();
            JwtSigner tokens = new JwtSigner(secret);
            String report = measure(port, tokens, hashes, warmup, rounds);
            System.out.print(report);
            Files.createDirectories(out);
            Files.writeString(out.resolve("client-e2e.md"), report);
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String measure(int port, JwtSigner tokens, List<VersionedHash> hashes, int warmup, int rounds)
            throws Exception {
        String params = ",\"method\":\"engine_getBlobsV2\",\"params\":[["
                + hashes.stream().map(h -> "\"" + h + "\"").collect(Collectors.joining(",")) + "]]}";
        ObjectMapper teku = GetBlobsResponseReadBenchmark.tekuObjectMapper();
        GetBlobsCall call = new GetBlobsCall(BlobsMethod.V2, hashes, null);
        long[][] plain = new long[1][rounds];
        long[][] probe = new long[3][rounds];
        long[][] tekuTimes = new long[1][rounds];
        long bodyBytes = 0;
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        try (LoopbackClient raw = new LoopbackClient(address, false);
                GetBlobsClient client = GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:" + port))
                        .tokens(tokens)
                        .build()) {
            for (int r = -warmup; r < rounds; r++) {
                // The id of the probe client's call of this round, so that every body has the same length.
                String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (r + warmup + 1) + params;
                byte[] request = LoopbackClient.request(tokens.get(), body, false);
                System.gc(); // each client starts without the garbage of the one before (Teku's path's: hundreds of MB)
                long start = System.nanoTime();
                long length = raw.exchange(request);
                long plainNanos = System.nanoTime() - start;

                System.gc();
                BlobsOutcome outcome = client.call(call, new BlobsListener() {}).get(60, TimeUnit.SECONDS);
                if (outcome.available() != hashes.size() || outcome.bodyBytes() != length) {
                    throw new IllegalStateException("the probe client read " + outcome + ", the plain read " + length);
                }

                request = LoopbackClient.request(tokens.get(), body, false);
                System.gc();
                start = System.nanoTime();
                List<TekuBlobAndProofV2> result =
                        GetBlobsResponseReadBenchmark.tekuRead(teku, new ByteArrayInputStream(raw.fetch(request)));
                long tekuNanos = System.nanoTime() - start;
                if (result.size() != hashes.size()) {
                    throw new IllegalStateException("Teku's path read " + result.size() + " entries");
                }
                if (r >= 0) {
                    plain[0][r] = plainNanos;
                    probe[0][r] = outcome.toFirstBlob();
                    probe[1][r] = outcome.toLastByte();
                    probe[2][r] = outcome.toHead();
                    tekuTimes[0][r] = tekuNanos;
                    bodyBytes = length;
                }
            }
        }
        return report(hashes.size(), bodyBytes, rounds, plain[0], probe, tekuTimes[0]);
    }

    /** {@code probe}: the probe client's times to first blob, to last byte and to the response head. */
    private static String report(int blobs, long bodyBytes, int rounds, long[] plain, long[][] probe, long[] teku) {
        long[] firstBlob = probe[0];
        long[] lastByte = probe[1];
        StringBuilder table = new StringBuilder(String.format(
                Locale.ROOT,
                "engine_getBlobsV2, %d blobs, %,d bytes of JSON, loopback, keep-alive, %d rounds, client kernel %s (ms;"
                        + " the probe client's first byte p50 %.2f)%n%n",
                blobs,
                bodyBytes,
                rounds,
                Hex.kernel(),
                p(probe[2], 0.5) / 1e6));
        table.append("| client | first blob p50 | last blob p50 | last blob p99 |\n|---|---:|---:|---:|\n");
        table.append(row("plainRead (read and discard)", null, plain));
        table.append(row("probeClient (hexstream)", firstBlob, lastByte));
        table.append(row("tekuWholeBody (readTree + treeToValue)", teku, teku));
        double first = (double) p(firstBlob, 0.5) / p(lastByte, 0.5);
        double last = (double) p(lastByte, 0.5) / p(plain, 0.5);
        table.append(String.format(
                Locale.ROOT,
                "%nprobe client: first blob at %.1f %% of its last byte (at most 15 %%:"
                        + " %s); last blob at %.2f× the plain read (at most 1.2×: %s); Teku's path %.1f× the probe"
                        + " client's last blob%n",
                100 * first,
                first <= 0.15 ? "met" : "NOT met",
                last,
                last <= 1.2 ? "met" : "NOT met",
                (double) p(teku, 0.5) / p(lastByte, 0.5)));
        return table.toString();
    }

    private static String row(String name, long[] first, long[] last) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %.2f | %.2f |%n",
                name,
                first == null ? "-" : String.format(Locale.ROOT, "%.2f", p(first, 0.5) / 1e6),
                p(last, 0.5) / 1e6,
                p(last, 0.99) / 1e6);
    }

    private static long p(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.max(0, (int) Math.ceil(q * sorted.length) - 1)];
    }

    /** The example server in its own JVM: the Vector API, its hex cache, {@value #POOL} blobs, its log by the data. */
    private static Process startServer(Path dataDir, int port) throws IOException {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms2g",
                "-Xmx2g",
                "-XX:+AlwaysPreTouch",
                "--add-modules=jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                "io.hexstream.server.cli.Main",
                "--port",
                Integer.toString(port),
                "--data-dir",
                dataDir.toString(),
                "--generate",
                Integer.toString(POOL),
                "--fork",
                "osaka",
                "--log-level",
                "warn");
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(
                        dataDir.resolveSibling(dataDir.getFileName() + ".log").toFile())
                .start();
    }

    /** The pool's hashes once the server has written its hashes file with {@value #POOL} of them. */
    private static List<VersionedHash> awaitPool(Path dataDir, Process server) throws Exception {
        Path file = dataDir.resolve("hashes.txt");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IOException("the server exited with " + server.exitValue());
            }
            if (Files.exists(file)) {
                List<String> lines = Files.readAllLines(file).stream()
                        .filter(l -> !l.isBlank())
                        .toList();
                if (lines.size() >= POOL) {
                    return lines.stream().map(VersionedHash::decode).toList();
                }
            }
            Thread.sleep(200);
        }
        throw new IOException("no " + POOL + " blobs in " + file + " after " + START_TIMEOUT_S + " s");
    }
}
