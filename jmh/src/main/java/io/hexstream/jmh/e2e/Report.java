package io.hexstream.jmh.e2e;

import static io.hexstream.jmh.e2e.EndToEndBenchmark.format;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/** The end-to-end results as a Markdown table and two PNG charts (XChart). */
final class Report {
    private Report() {}

    static String markdown(List<EndToEndBenchmark.Cell> cells, String jdk, double seconds, double totalSeconds) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "### engine_getBlobsV2 end to end over loopback — JDK %s, %d CPUs, "
                + "%.0f s per cell, whole run %.0f s%n%n", jdk, Runtime.getRuntime().availableProcessors(), seconds,
                totalSeconds));
        md.append("| mode | blobs | clients | p50 ms | p99 ms | responses/s | MB/s | server heap / request |"
                + " peak direct MiB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (EndToEndBenchmark.Cell c : cells) {
            md.append("| `").append(c.mode()).append("` | ").append(c.blobs()).append(" | ").append(c.clients())
                    .append(" | ").append(format(c.p50Millis())).append(" | ").append(format(c.p99Millis()))
                    .append(" | ").append(format(c.responsesPerSecond())).append(" | ")
                    .append(format(c.megabytesPerSecond())).append(" | ").append(bytes(c.heapPerRequest()))
                    .append(" | ").append(format(c.peakDirect() / 1048576.0)).append(" |\n");
        }
        return md.toString();
    }

    static void charts(List<EndToEndBenchmark.Cell> cells, String jdk, Path p50, Path heap) throws IOException {
        save(chart(cells, "getBlobsV2 p50 time to last byte, 1 client (JDK " + jdk + ")", "ms (log)",
                EndToEndBenchmark.Cell::p50Millis, true), p50);
        save(chart(cells, "Server heap allocated per request, 1 client (JDK " + jdk + ")", "bytes (log)",
                c -> Math.max(1, c.heapPerRequest()), true), heap);
    }

    private static XYChart chart(List<EndToEndBenchmark.Cell> cells, String title, String yTitle,
            ToDoubleFunction<EndToEndBenchmark.Cell> y, boolean logarithmic) {
        // Log scales: the three modes differ by orders of magnitude, and a linear axis flattens the two fast ones.
        XYChart chart = new XYChartBuilder().width(900).height(540).title(title).xAxisTitle("blobs per request")
                .yAxisTitle(yTitle).build();
        chart.getStyler().setYAxisLogarithmic(logarithmic);
        for (EndToEndBenchmark.Mode mode : EndToEndBenchmark.MODES) {
            List<EndToEndBenchmark.Cell> series = cells.stream()
                    .filter(c -> c.mode().equals(mode.name()) && c.clients() == 1).toList();
            chart.addSeries(mode.name(), series.stream().mapToDouble(EndToEndBenchmark.Cell::blobs).toArray(),
                    series.stream().mapToDouble(y).toArray());
        }
        return chart;
    }

    private static void save(XYChart chart, Path file) throws IOException {
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String bytes(long bytes) {
        if (bytes >= 1 << 20) {
            return format(bytes / 1048576.0) + " MiB";
        }
        return bytes >= 1 << 10 ? format(bytes / 1024.0) + " KiB" : bytes + " B";
    }
}
