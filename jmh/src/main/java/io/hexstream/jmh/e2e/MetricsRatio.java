package io.hexstream.jmh.e2e;

import static io.hexstream.jmh.e2e.EndToEndBenchmark.format;

import java.util.List;
import java.util.Locale;

/**
 * Metrics on against metrics off in one run: each cell of {@link #ON} (the product with {@code --metrics-port}, scraped
 * once a second) beside the same cell of {@link #OFF} (the same product and kernel without it), as the ratio of their
 * p50 and p99 times to last byte, their throughput and the server heap allocated per request.
 */
final class MetricsRatio {
    /** The server with metrics on. */
    static final String ON = "hexstream-vector-metrics";
    /** The same server with metrics off. */
    static final String OFF = "hexstream-vector";

    private MetricsRatio() {}

    /** The table, or an empty string unless both servers ran. */
    static String markdown(List<EndToEndBenchmark.Cell> cells) {
        List<EndToEndBenchmark.Cell> on =
                cells.stream().filter(c -> c.server().equals(ON)).toList();
        if (on.isEmpty() || cells.stream().noneMatch(c -> c.server().equals(OFF))) {
            return "";
        }
        StringBuilder md = new StringBuilder(String.format(
                Locale.ROOT,
                "%n#### Metrics on ÷ off: `%s` ÷ `%s`, same run%n%n"
                        + "`%s` serves `--metrics-port` and is scraped once a second (OpenMetrics, as Prometheus asks); a ratio"
                        + " above 1 is a cost of the metrics (for responses/s: below 1).%n%n",
                ON,
                OFF,
                ON));
        md.append("| connections | request | blobs | clients | p50 ms off | p50 ms on | p50 on ÷ off | p99 on ÷ off |"
                + " responses/s on ÷ off | server heap / request off | on |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (EndToEndBenchmark.Cell c : on) {
            Report.same(cells, c, OFF)
                    .ifPresent(off -> md.append("| ")
                            .append(c.connections())
                            .append(" | ")
                            .append(c.shape())
                            .append(" | ")
                            .append(c.blobs())
                            .append(" | ")
                            .append(c.clients())
                            .append(" | ")
                            .append(format(off.p50Millis()))
                            .append(" | ")
                            .append(format(c.p50Millis()))
                            .append(" | ")
                            .append(ratio(c.p50Millis(), off.p50Millis()))
                            .append(" | ")
                            .append(ratio(c.p99Millis(), off.p99Millis()))
                            .append(" | ")
                            .append(ratio(c.responsesPerSecond(), off.responsesPerSecond()))
                            .append(" | ")
                            .append(Report.bytes(off.heapPerRequest()))
                            .append(" | ")
                            .append(Report.bytes(c.heapPerRequest()))
                            .append(" |\n"));
        }
        return md.toString();
    }

    private static String ratio(double on, double off) {
        return String.format(Locale.ROOT, "%.3f", on / off);
    }
}
