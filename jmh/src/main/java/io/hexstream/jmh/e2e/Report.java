package io.hexstream.jmh.e2e;

import static io.hexstream.jmh.e2e.EndToEndBenchmark.format;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/** The end-to-end results as a Markdown table and two PNG charts (XChart). */
final class Report {
    private Report() {}

    static String markdown(List<EndToEndBenchmark.Cell> cells, String jdk, double seconds, double totalSeconds) {
        boolean v2Only = cells.stream().allMatch(c -> c.shape().equals(RequestShape.V2.name()));
        return markdown(
                "engine_getBlobs" + (v2Only ? "V2" : "V2/V4") + " end to end over loopback",
                EndToEndBenchmark.FLOOR,
                EndToEndBenchmark.PEER,
                cells,
                jdk,
                seconds,
                totalSeconds);
    }

    /**
     * The table of {@code cells} under {@code title}, with each p50 as a multiple of {@code floor}'s in the same cell
     * (no such column when {@code floor} is {@code null}) and as a speed-up over {@code peer}'s.
     */
    static String markdown(
            String title,
            String floor,
            String peer,
            List<EndToEndBenchmark.Cell> cells,
            String jdk,
            double seconds,
            double totalSeconds) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "### %s — JDK %s, %d CPUs, %.0f s per cell, whole run %.0f s%n%n",
                title,
                jdk,
                Runtime.getRuntime().availableProcessors(),
                seconds,
                totalSeconds));
        md.append(floor == null ? "" : "p50 ÷ floor: the p50 as a multiple of `" + floor + "`'s in the same cell; ")
                .append("× peer: how many times faster than `" + peer + "` (its p50 ÷ this p50).\n\n");
        md.append("| server | kernel | connections | request | blobs | clients | p50 ms | p99 ms |")
                .append(floor == null ? "" : " p50 ÷ floor |")
                .append(" × peer | responses/s | MB/s | server heap / request | server CPU / request |")
                .append(" peak direct MiB |\n")
                .append("|---|---|---|---|---:|---:|---:|---:|")
                .append(floor == null ? "" : "---:|")
                .append("---:|---:|---:|---:|---:|---:|\n");
        for (EndToEndBenchmark.Cell c : cells) {
            md.append("| `")
                    .append(c.server())
                    .append("` | ")
                    .append(c.kernel())
                    .append(" | ")
                    .append(c.connections())
                    .append(" | ")
                    .append(c.shape())
                    .append(" | ")
                    .append(c.blobs())
                    .append(" | ")
                    .append(c.clients())
                    .append(" | ")
                    .append(format(c.p50Millis()))
                    .append(" | ")
                    .append(format(c.p99Millis()));
            if (floor != null) {
                md.append(" | ").append(ratio(same(cells, c, floor).map(f -> c.p50Millis() / f.p50Millis())));
            }
            md.append(" | ")
                    .append(ratio(same(cells, c, peer).map(p -> p.p50Millis() / c.p50Millis())))
                    .append(" | ")
                    .append(format(c.responsesPerSecond()))
                    .append(" | ")
                    .append(format(c.megabytesPerSecond()))
                    .append(" | ")
                    .append(bytes(c.heapPerRequest()))
                    .append(" | ")
                    .append(cpu(c.cpuNanosPerRequest()))
                    .append(" | ")
                    .append(format(c.peakDirect() / 1048576.0))
                    .append(" |\n");
        }
        return md.toString();
    }

    /**
     * The WebSocket, IPC and HTTP/2 cells against keep-alive HTTP/1.1's of the same server, shape, blobs and clients:
     * p50 and heap per request as multiples of HTTP/1.1's (for {@code h2c-shared} of N clients: against N keep-alive
     * connections); for HTTP/2 also the DATA frames per request, the heap per DATA frame (heap per request ÷ frames per
     * request) and what each frame costs over HTTP/1.1 (the heap per request less HTTP/1.1's, ÷ frames per request).
     * Empty without such cells.
     */
    static String transports(List<EndToEndBenchmark.Cell> cells) {
        StringBuilder md = new StringBuilder();
        for (EndToEndBenchmark.Cell c : cells) {
            if (EndToEndBenchmark.http1(c.connections())) {
                continue;
            }
            Optional<EndToEndBenchmark.Cell> http = cells.stream()
                    .filter(h -> h.server().equals(c.server())
                            && h.connections().equals("keep-alive")
                            && h.shape().equals(c.shape())
                            && h.blobs() == c.blobs()
                            && h.clients() == c.clients())
                    .findFirst();
            if (md.isEmpty()) {
                md.append("\n### WebSocket, IPC and HTTP/2 against keep-alive HTTP/1.1\n\n")
                        .append("| server | connections | request | blobs | clients | p50 ms | p50 ÷ HTTP/1.1's")
                        .append(" | heap / request | heap ÷ HTTP/1.1's | DATA frames / request | heap / DATA frame")
                        .append(" | heap over HTTP/1.1's / DATA frame |\n")
                        .append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            }
            md.append("| `")
                    .append(c.server())
                    .append("` | ")
                    .append(c.connections())
                    .append(" | ")
                    .append(c.shape())
                    .append(" | ")
                    .append(c.blobs())
                    .append(" | ")
                    .append(c.clients())
                    .append(" | ")
                    .append(format(c.p50Millis()))
                    .append(" | ")
                    .append(ratio(http.map(h -> c.p50Millis() / h.p50Millis())))
                    .append(" | ")
                    .append(bytes(c.heapPerRequest()))
                    .append(" | ")
                    .append(ratio(http.map(h -> (double) c.heapPerRequest() / h.heapPerRequest())))
                    .append(frames(c, http))
                    .append(" |\n");
        }
        return md.toString();
    }

    /** The DATA frame cells of {@link #transports} for {@code c}: dashes for a kind without frames. */
    private static String frames(EndToEndBenchmark.Cell c, Optional<EndToEndBenchmark.Cell> http) {
        double frames = c.dataFramesPerRequest();
        if (frames == 0) {
            return " | – | – | –";
        }
        return " | " + format(frames)
                + " | " + bytes(Math.round(c.heapPerRequest() / frames))
                + " | "
                + http.map(h -> signedBytes(Math.round((c.heapPerRequest() - h.heapPerRequest()) / frames)))
                        .orElse("–");
    }

    /** The cell of {@code server} with the same connections, request shape, blobs and clients as {@code cell}. */
    static Optional<EndToEndBenchmark.Cell> same(
            List<EndToEndBenchmark.Cell> cells, EndToEndBenchmark.Cell cell, String server) {
        return cells.stream()
                .filter(c -> c.server().equals(server)
                        && c.connections().equals(cell.connections())
                        && c.shape().equals(cell.shape())
                        && c.blobs() == cell.blobs()
                        && c.clients() == cell.clients())
                .findFirst();
    }

    private static String ratio(Optional<Double> value) {
        return value.map(v -> String.format(Locale.ROOT, "%.2f", v)).orElse("–");
    }

    /**
     * getBlobsV2's p50 and heap per request against blobs per request, one client, a connection per request if
     * measured.
     */
    static void charts(List<EndToEndBenchmark.Cell> cells, String jdk, Path p50, Path heap) throws IOException {
        String connections =
                cells.stream().anyMatch(c -> c.connections().equals("per-request")) ? "per-request" : "keep-alive";
        save(
                chart(
                        cells,
                        connections,
                        "getBlobsV2 p50 time to last byte, 1 client, " + connections + " (JDK " + jdk + ")",
                        "ms (log)",
                        EndToEndBenchmark.Cell::p50Millis),
                p50);
        save(
                chart(
                        cells,
                        connections,
                        "Server heap allocated per request, 1 client, " + connections + " (JDK " + jdk + ")",
                        "bytes (log)",
                        c -> Math.max(1, c.heapPerRequest())),
                heap);
    }

    private static XYChart chart(
            List<EndToEndBenchmark.Cell> cells,
            String connections,
            String title,
            String yTitle,
            ToDoubleFunction<EndToEndBenchmark.Cell> y) {
        // Log scales: the servers differ by orders of magnitude, and a linear axis flattens the fast ones.
        XYChart chart = chart(title, "blobs per request", yTitle, true);
        Set<String> servers = new LinkedHashSet<>();
        cells.forEach(c -> servers.add(c.server()));
        for (String server : servers) {
            List<EndToEndBenchmark.Cell> series = cells.stream()
                    .filter(c -> c.server().equals(server)
                            && c.clients() == 1
                            && c.connections().equals(connections)
                            && c.shape().equals(RequestShape.V2.name()))
                    .toList();
            if (!series.isEmpty()) {
                chart.addSeries(
                        server,
                        series.stream()
                                .mapToDouble(EndToEndBenchmark.Cell::blobs)
                                .toArray(),
                        series.stream().mapToDouble(y).toArray());
            }
        }
        return chart;
    }

    /** An empty chart of the house style (900 × 540), its y axis logarithmic or not; add series, then save it. */
    static XYChart chart(String title, String xTitle, String yTitle, boolean logarithmic) {
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(540)
                .title(title)
                .xAxisTitle(xTitle)
                .yAxisTitle(yTitle)
                .build();
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        return chart;
    }

    /** {@code charts} one above the other, as one PNG. */
    static void saveStacked(List<XYChart> charts, Path file) throws IOException {
        List<BufferedImage> images =
                charts.stream().map(BitmapEncoder::getBufferedImage).toList();
        BufferedImage stacked = new BufferedImage(
                images.stream().mapToInt(BufferedImage::getWidth).max().orElse(1),
                images.stream().mapToInt(BufferedImage::getHeight).sum(),
                BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = stacked.createGraphics();
        int y = 0;
        for (BufferedImage image : images) {
            graphics.drawImage(image, 0, y, null);
            y += image.getHeight();
        }
        graphics.dispose();
        ImageIO.write(stacked, "png", file.toFile());
    }

    /** {@code chart} as a PNG. */
    static void save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** CPU time in µs below a millisecond, else in ms. */
    static String cpu(long nanos) {
        return nanos >= 1_000_000 ? format(nanos / 1e6) + " ms" : format(nanos / 1e3) + " µs";
    }

    /** {@link #bytes}, with a minus sign below zero. */
    static String signedBytes(long bytes) {
        return bytes < 0 ? "−" + bytes(-bytes) : bytes(bytes);
    }

    static String bytes(long bytes) {
        if (bytes >= 1 << 20) {
            return format(bytes / 1048576.0) + " MiB";
        }
        return bytes >= 1 << 10 ? format(bytes / 1024.0) + " KiB" : bytes + " B";
    }
}
