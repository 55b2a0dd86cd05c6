package io.hexstream.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Turns one JMH run's JSON results ({@code -rf json -rff FILE}) into Markdown tables: one row per benchmark, one column
 * per value of its parameter, each cell the average time (± JMH's 99.9 % error, left out where one iteration gives
 * none) and, in brackets, the speed-up over the baseline row of the same run. Where the run used {@code -prof gc}, a
 * second table gives {@code gc.alloc.rate.norm} and its share of the baseline's.
 *
 * <pre>
 * java -jar jmh/target/hexstream-jmh.jar ToFastHexBenchmark -rf json -rff target/tofasthex.json
 * java -cp jmh/target/hexstream-jmh.jar io.hexstream.jmh.BenchmarkReport target/tofasthex.json \
 *     --baseline charArray [--title TEXT] [--out target/tofasthex-jdk17.md]
 * </pre>
 */
public final class BenchmarkReport {
    private BenchmarkReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length == 0 || args[0].startsWith("-")) {
            System.err.println("usage: BenchmarkReport RESULTS.json [--baseline ROW] [--title TEXT] [--out FILE]");
            System.exit(2);
        }
        Path results = Path.of(args[0]);
        String baseline = null;
        String title = null;
        Path out = null;
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--baseline" -> baseline = args[++i];
                case "--title" -> title = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        String markdown = markdown(new ObjectMapper().readTree(results.toFile()), baseline, title);
        System.out.print(markdown);
        if (out != null) {
            Path parent = out.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(out, markdown);
            System.out.println("written to " + out);
        }
    }

    /** A measured value and its error, {@code NaN} when JMH had too few iterations for one. */
    private record Score(double value, double error, String unit) {}

    /**
     * One run's scores: rows by benchmark, columns by parameter values (one per combination, {@code 128, 8} under
     * {@code blobs, cells}), in the order first met.
     */
    private static final class Scores {
        final Map<String, Map<String, Score>> time = new LinkedHashMap<>();
        final Map<String, Map<String, Score>> alloc = new LinkedHashMap<>();
        final List<String> columns = new ArrayList<>();
        String paramName = "";

        static Scores of(JsonNode runs) {
            Scores scores = new Scores();
            for (JsonNode run : runs) {
                scores.add(run);
            }
            return scores;
        }

        private void add(JsonNode run) {
            String benchmark = run.get("benchmark").asText();
            String row = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            String column = "-";
            JsonNode params = run.get("params");
            if (params != null) { // several parameters: one column per combination, "128, 8" under "blobs, cells"
                StringJoiner names = new StringJoiner(", ");
                StringJoiner values = new StringJoiner(", ");
                params.fields().forEachRemaining(param -> {
                    names.add(param.getKey());
                    values.add(param.getValue().asText());
                });
                paramName = names.toString();
                column = values.toString();
            }
            if (!columns.contains(column)) {
                columns.add(column);
            }
            time.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(column, score(run.get("primaryMetric")));
            JsonNode secondary = run.get("secondaryMetrics");
            for (Iterator<Map.Entry<String, JsonNode>> metrics = secondary == null ? null : secondary.fields();
                    metrics != null && metrics.hasNext(); ) {
                Map.Entry<String, JsonNode> metric = metrics.next();
                if (metric.getKey().endsWith("gc.alloc.rate.norm")) {
                    alloc.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(column, score(metric.getValue()));
                }
            }
        }
    }

    static String markdown(JsonNode runs, String baseline, String title) {
        Scores scores = Scores.of(runs);
        StringBuilder md = new StringBuilder();
        heading(md, runs.get(0), title);
        md.append("Average time per operation");
        if (baseline != null) {
            md.append("; in brackets, how many times faster than `")
                    .append(baseline)
                    .append("` in the same run");
        }
        md.append(".\n\n");
        header(md, scores.paramName, scores.columns);
        timeRows(md, scores, baseline);
        if (!scores.alloc.isEmpty()) {
            md.append("\nHeap allocated per operation (`gc.alloc.rate.norm`)");
            if (baseline != null) {
                md.append("; in brackets, the share of `").append(baseline).append("`'s");
            }
            md.append(".\n\n");
            header(md, scores.paramName, scores.columns);
            allocRows(md, scores, baseline);
        }
        return md.toString();
    }

    /** The title line: the class (or {@code title}), JDK, Vector API, forks and iterations of the {@code first} run. */
    private static void heading(StringBuilder md, JsonNode first, String title) {
        String jvmArgs = String.join(" ", texts(first.get("jvmArgs")));
        md.append("### ")
                .append(title != null ? title : classOf(first.get("benchmark").asText()))
                .append(" — JDK ")
                .append(first.get("jdkVersion").asText())
                .append(", Vector API ")
                .append(jvmArgs.contains("jdk.incubator.vector") ? "on" : "off")
                .append(", ")
                .append(first.get("forks").asInt())
                .append(" fork(s) × ")
                .append(first.get("measurementIterations").asInt())
                .append(" iteration(s) of ")
                .append(first.get("measurementTime").asText())
                .append("\n\n");
    }

    /** A row per benchmark: its average times and, in brackets, the speed-up over {@code baseline}'s. */
    private static void timeRows(StringBuilder md, Scores scores, String baseline) {
        for (var row : scores.time.entrySet()) {
            md.append("| `").append(row.getKey()).append("` |");
            for (String column : scores.columns) {
                Score s = row.getValue().get(column);
                Score base = baseline == null
                        ? null
                        : scores.time.getOrDefault(baseline, Map.of()).get(column);
                md.append(' ').append(s == null ? "–" : formatTime(s));
                if (s != null && base != null) {
                    md.append(String.format(Locale.ROOT, " (%.2f×)", base.value() / s.value()));
                }
                md.append(" |");
            }
            md.append('\n');
        }
    }

    /** A row per benchmark: its heap per operation and, in brackets, its share of {@code baseline}'s. */
    private static void allocRows(StringBuilder md, Scores scores, String baseline) {
        for (var row : scores.alloc.entrySet()) {
            md.append("| `").append(row.getKey()).append("` |");
            for (String column : scores.columns) {
                Score s = row.getValue().get(column);
                Score base = baseline == null
                        ? null
                        : scores.alloc.getOrDefault(baseline, Map.of()).get(column);
                md.append(' ').append(s == null ? "–" : formatBytes(s.value()));
                if (s != null && base != null && base.value() > 0) {
                    md.append(String.format(Locale.ROOT, " (%.3f %%)", 100 * s.value() / base.value()));
                }
                md.append(" |");
            }
            md.append('\n');
        }
    }

    private static Score score(JsonNode metric) {
        // JMH writes "NaN" (a string) for the error of a single iteration.
        return new Score(
                metric.get("score").asDouble(),
                Double.parseDouble(metric.get("scoreError").asText()),
                metric.get("scoreUnit").asText());
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        if (array != null) {
            array.forEach(node -> texts.add(node.asText()));
        }
        return texts;
    }

    private static String classOf(String benchmark) {
        String withoutMethod = benchmark.substring(0, benchmark.lastIndexOf('.'));
        return withoutMethod.substring(withoutMethod.lastIndexOf('.') + 1);
    }

    private static void header(StringBuilder md, String paramName, List<String> columns) {
        md.append("| benchmark \\ ").append(paramName).append(" |");
        columns.forEach(c -> md.append(' ').append(c).append(" |"));
        md.append("\n|---|");
        columns.forEach(c -> md.append("---:|"));
        md.append('\n');
    }

    private static String formatTime(Score s) {
        double nanos = s.value() * nanosPer(s.unit());
        double error = s.error() * nanosPer(s.unit());
        boolean ms = nanos >= 1e6;
        double scale = ms ? 1e6 : 1e3;
        String unit = ms ? "ms" : "µs";
        String format = ms ? "%.2f" : "%.1f";
        String value = String.format(Locale.ROOT, format, nanos / scale);
        if (Double.isNaN(error)) {
            return value + " " + unit;
        }
        return value + " ± " + String.format(Locale.ROOT, format, error / scale) + " " + unit;
    }

    private static double nanosPer(String unit) {
        if (unit.startsWith("ns")) {
            return 1;
        }
        if (unit.startsWith("us")) {
            return 1e3;
        }
        if (unit.startsWith("ms")) {
            return 1e6;
        }
        if (unit.startsWith("s/")) {
            return 1e9;
        }
        throw new IllegalArgumentException("unexpected unit " + unit);
    }

    private static String formatBytes(double bytes) {
        if (bytes >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
        }
        if (bytes >= 1 << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / (1 << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", bytes);
    }
}
