package io.hexstream.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs one benchmark class and writes its results as a Markdown table: one row per benchmark, one
 * column per parameter value, each cell the average time and its speed-up over the baseline row,
 * measured in the same run. With {@code --gc}, a second table gives {@code gc.alloc.rate.norm}.
 *
 * <pre>
 * java -jar jmh/target/hexstream-jmh.jar ToFastHexBenchmark --baseline charArray \
 *     --out jmh/results/tofasthex-jdk17.md [--forks 3] [--warmups 3] [--iterations 5] [--gc]
 * </pre>
 */
public final class BenchmarkReport {
    private BenchmarkReport() {}

    public static void main(String[] args) throws RunnerException, IOException {
        if (args.length == 0) {
            System.err.println("usage: BenchmarkReport BENCHMARK_CLASS [--baseline ROW] [--out FILE] "
                    + "[--forks N] [--warmups N] [--iterations N] [--gc] [--param NAME=V1,V2]");
            System.exit(2);
        }
        String benchmark = args[0];
        String baseline = null;
        Path out = null;
        boolean gc = false;
        ChainedOptionsBuilder options = new OptionsBuilder().include("\\." + benchmark + "\\.");
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--baseline" -> baseline = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                case "--forks" -> options.forks(Integer.parseInt(args[++i]));
                case "--warmups" -> options.warmupIterations(Integer.parseInt(args[++i]));
                case "--iterations" -> options.measurementIterations(Integer.parseInt(args[++i]));
                case "--time" -> {
                    TimeValue time = TimeValue.seconds(Integer.parseInt(args[++i]));
                    options.warmupTime(time).measurementTime(time);
                }
                case "--gc" -> gc = true;
                case "--param" -> {
                    String[] nameValues = args[++i].split("=", 2);
                    options.param(nameValues[0], nameValues[1].split(","));
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (gc) {
            options.addProfiler("gc");
        }
        Collection<RunResult> results = new Runner(options.build()).run();
        String markdown = markdown(benchmark, baseline, results, gc);
        System.out.println(markdown);
        if (out != null) {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, markdown);
            System.out.println("written to " + out);
        }
    }

    static String markdown(String benchmark, String baseline, Collection<RunResult> results, boolean gc) {
        Map<String, Map<String, Result<?>>> time = new LinkedHashMap<>();
        Map<String, Map<String, Result<?>>> alloc = new LinkedHashMap<>();
        List<String> params = new ArrayList<>();
        String paramName = "";
        int forks = 0;
        int iterations = 0;
        for (RunResult run : results) {
            var params0 = run.getParams();
            String row = params0.getBenchmark().substring(params0.getBenchmark().lastIndexOf('.') + 1);
            String key = params0.getParamsKeys().isEmpty() ? "" : params0.getParamsKeys().iterator().next();
            paramName = key;
            String column = key.isEmpty() ? "-" : params0.getParam(key);
            if (!params.contains(column)) {
                params.add(column);
            }
            forks = params0.getForks();
            iterations = params0.getMeasurement().getCount();
            time.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(column, run.getPrimaryResult());
            Result<?> norm = run.getSecondaryResults().get("gc.alloc.rate.norm");
            if (norm != null) {
                alloc.computeIfAbsent(row, k -> new LinkedHashMap<>()).put(column, norm);
            }
        }
        StringBuilder md = new StringBuilder();
        md.append("### ").append(benchmark).append(" — JDK ").append(System.getProperty("java.version"))
                .append(" (").append(System.getProperty("java.vm.name")).append("), ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPUs, ")
                .append(forks).append(" forks × ").append(iterations).append(" iterations\n\n");
        md.append("Average time per operation; in brackets, how many times faster than `")
                .append(baseline).append("` in the same run.\n\n");
        header(md, paramName, params);
        for (var row : time.entrySet()) {
            md.append("| `").append(row.getKey()).append("` |");
            for (String p : params) {
                Result<?> r = row.getValue().get(p);
                Result<?> base = baseline == null ? null : time.getOrDefault(baseline, Map.of()).get(p);
                md.append(' ').append(r == null ? "–" : formatTime(r));
                if (r != null && base != null) {
                    md.append(String.format(Locale.ROOT, " (%.2f×)", base.getScore() / r.getScore()));
                }
                md.append(" |");
            }
            md.append('\n');
        }
        if (gc && !alloc.isEmpty()) {
            md.append("\nHeap allocated per operation (`gc.alloc.rate.norm`); in brackets, the share of `")
                    .append(baseline).append("`'s.\n\n");
            header(md, paramName, params);
            for (var row : alloc.entrySet()) {
                md.append("| `").append(row.getKey()).append("` |");
                for (String p : params) {
                    Result<?> r = row.getValue().get(p);
                    Result<?> base = baseline == null ? null : alloc.getOrDefault(baseline, Map.of()).get(p);
                    md.append(' ').append(r == null ? "–" : formatBytes(r.getScore()));
                    if (r != null && base != null && base.getScore() > 0) {
                        md.append(String.format(Locale.ROOT, " (%.3f %%)", 100 * r.getScore() / base.getScore()));
                    }
                    md.append(" |");
                }
                md.append('\n');
            }
        }
        return md.toString();
    }

    private static void header(StringBuilder md, String paramName, List<String> params) {
        md.append("| benchmark \\ ").append(paramName).append(" |");
        params.forEach(p -> md.append(' ').append(p).append(" |"));
        md.append("\n|---|");
        params.forEach(p -> md.append("---:|"));
        md.append('\n');
    }

    private static String formatTime(Result<?> r) {
        double nanos = r.getScore() * nanosPer(r.getScoreUnit());
        double error = r.getScoreError() * nanosPer(r.getScoreUnit());
        if (nanos >= 1e6) {
            return String.format(Locale.ROOT, "%.2f ± %.2f ms", nanos / 1e6, error / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f ± %.1f µs", nanos / 1e3, error / 1e3);
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
