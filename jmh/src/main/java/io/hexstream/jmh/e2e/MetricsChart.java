package io.hexstream.jmh.e2e;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.ExampleServer;
import io.hexstream.server.ServerOptions;
import io.hexstream.server.auth.JwtAuthenticator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.knowm.xchart.XYChart;

/**
 * Two of the server's metrics over a short run, as an operator's dashboard would draw them from Prometheus: an example
 * server with {@code --metrics-port} (in this JVM, over the end-to-end pool) is warmed up (all three blob counts at
 * once for {@code --seconds}, unrecorded), then sent {@code engine_getBlobsV2} requests of 1 blob, then 21, then 128
 * (one keep-alive client each, {@code --seconds} each), then all three at once, and scraped once a second
 * ({@link PeriodicScrape}). Drawn into one PNG, one chart above the other: the mean time to last byte of each scrape
 * interval ({@code rate(hexstream_rpc_response_seconds_sum) / rate(..._count)}), one series per phase (for the mixed
 * phase, the mean over all three sizes), and Netty's direct memory
 * ({@code hexstream_netty_direct_memory_allocated_bytes}) with the responses in flight.
 *
 * <pre>
 * mvn -B -q -DskipTests package &amp;&amp; java --add-modules jdk.incubator.vector -cp jmh/target/hexstream-jmh.jar \
 *     io.hexstream.jmh.e2e.MetricsChart [--out target/jmh-results] [--data-dir target/hexstream-data-e2e] [--seconds 5]
 * </pre>
 */
public final class MetricsChart {
    private static final String METHOD = "{method=\"engine_getBlobsV2\"}";
    private static final List<List<Integer>> PHASES =
            List.of(List.of(1), List.of(21), List.of(128), List.of(1, 21, 128));

    /** One scrape: seconds since the load began, the phase then, and the values read. */
    private record Point(
            double seconds, int phase, double ttlbSum, double ttlbCount, double directBytes, double inFlight) {}

    private MetricsChart() {}

    public static void main(String[] args) throws Exception {
        Path out = EndToEndBenchmark.OUT;
        Path dataDir = EndToEndBenchmark.DATA_DIR;
        double seconds = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Files.createDirectories(out);
        Files.createDirectories(dataDir);
        List<Point> points = new ArrayList<>();
        try (ExampleServer server = ExampleServer.builder(ServerOptions.parse(
                        "--port",
                        "0",
                        "--data-dir",
                        dataDir.toString(),
                        "--generate",
                        Integer.toString(EndToEndBenchmark.POOL_BLOBS),
                        "--fork",
                        "osaka",
                        "--metrics-port",
                        "0"))
                .start()) {
            JwtAuthenticator tokens = new JwtAuthenticator(server.secret().bytes(), Clock.systemUTC());
            List<VersionedHash> hashes = Files.readAllLines(dataDir.resolve("hashes.txt")).stream()
                    .map(VersionedHash::decode)
                    .toList()
                    .subList(0, EndToEndBenchmark.POOL_BLOBS);
            drive(server, tokens, hashes, PHASES.get(PHASES.size() - 1), seconds); // warm-up: JIT, pools
            AtomicInteger phase = new AtomicInteger();
            long started = System.nanoTime();
            try (PeriodicScrape scrapes = new PeriodicScrape(server.metricsAddress(), Duration.ofSeconds(1), body -> {
                synchronized (points) {
                    points.add(new Point(
                            (System.nanoTime() - started) / 1e9,
                            phase.get(),
                            value(body, "hexstream_rpc_response_seconds_sum" + METHOD),
                            value(body, "hexstream_rpc_response_seconds_count" + METHOD),
                            value(body, "hexstream_netty_direct_memory_allocated_bytes"),
                            value(body, "hexstream_http_responses_in_flight")));
                }
            })) {
                for (int p = 0; p < PHASES.size(); p++) {
                    phase.set(p);
                    drive(server, tokens, hashes, PHASES.get(p), seconds);
                }
                Thread.sleep(1500); // a last scrape after the load
            }
        }
        Path png = out.resolve("metrics.png");
        Report.saveStacked(List.of(timeToLastByte(points), directMemory(points)), png);
        System.out.println(points.size() + " scrapes; written to " + png);
    }

    /** One keep-alive client per blob count in {@code blobCounts}, each sending back to back for {@code seconds}. */
    private static void drive(
            ExampleServer server,
            JwtAuthenticator tokens,
            List<VersionedHash> hashes,
            List<Integer> blobCounts,
            double seconds)
            throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(blobCounts.size());
        AtomicBoolean stop = new AtomicBoolean();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int blobs : blobCounts) {
                byte[] request =
                        LoopbackClient.request(tokens.token(), RequestShape.V2.body(hashes.subList(0, blobs)), false);
                running.add(clients.submit(() -> {
                    try (LoopbackClient client = new LoopbackClient(server.engineAddress(), false)) {
                        while (!stop.get()) {
                            client.exchange(request);
                        }
                    }
                    return null;
                }));
            }
            Thread.sleep((long) (seconds * 1000));
            stop.set(true);
            for (Future<?> client : running) {
                client.get();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    private static XYChart timeToLastByte(List<Point> points) {
        XYChart chart = Report.chart(
                "getBlobsV2 mean time to last byte per 1 s scrape, by blobs per request", "seconds", "ms (log)", true);
        for (int p = 0; p < PHASES.size(); p++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 1; i < points.size(); i++) {
                Point before = points.get(i - 1);
                Point now = points.get(i);
                double responses = now.ttlbCount() - before.ttlbCount();
                if (now.phase() == p && before.phase() == p && responses > 0) { // intervals within the phase
                    x.add(now.seconds());
                    y.add(1000 * (now.ttlbSum() - before.ttlbSum()) / responses);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(label(PHASES.get(p)), x, y);
            }
        }
        return chart;
    }

    private static XYChart directMemory(List<Point> points) {
        XYChart chart = Report.chart(
                "Netty direct memory allocated, and getBlobsV2 responses in flight, at each scrape",
                "seconds",
                "MiB / responses",
                false);
        List<Double> x = points.stream().map(Point::seconds).toList();
        chart.addSeries(
                "direct memory allocated, MiB",
                x,
                points.stream().map(p -> p.directBytes() / 1048576).toList());
        chart.addSeries(
                "responses in flight", x, points.stream().map(Point::inFlight).toList());
        return chart;
    }

    private static String label(List<Integer> blobCounts) {
        return blobCounts.size() == 1
                ? blobCounts.get(0) + (blobCounts.get(0) == 1 ? " blob" : " blobs")
                : "mixed "
                        + String.join(
                                "/", blobCounts.stream().map(String::valueOf).toList()) + " blobs";
    }

    /**
     * The value of {@code series} (written as the exposition writes it) in a scrape's body; 0 if absent (a labelled
     * series appears with its first observation).
     */
    static double value(String body, String series) {
        int at = body.indexOf("\n" + series + " ");
        if (at < 0) {
            return 0;
        }
        int start = at + series.length() + 2;
        int end = start;
        while (end < body.length() && body.charAt(end) != ' ' && body.charAt(end) != '\n') {
            end++;
        }
        return Double.parseDouble(body.substring(start, end));
    }
}
