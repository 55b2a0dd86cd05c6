package io.hexstream.server.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4 and of OpenMetrics 1.0 text, after their
 * specifications (the exposition formats page; the OpenMetrics ABNF): no Java parser of either is published (the
 * Prometheus Java client only writes them; the reference parser is Go's {@code expfmt}). It refuses what Prometheus
 * would: a sample without its family's {@code TYPE}, a family given twice or interleaved with another, a metric or
 * label name outside the grammar, a badly escaped label value, a duplicate series, a value that is not a float, a
 * histogram whose buckets are not cumulative or whose {@code +Inf} bucket differs from its count, and, in OpenMetrics,
 * a missing {@code # EOF}. Every family must have a {@code HELP} too (our rule, the issue's).
 */
public final class Exposition {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final List<String> TYPES = List.of("counter", "gauge", "histogram", "summary", "untyped");
    private static final List<String> OPENMETRICS_TYPES =
            List.of("counter", "gauge", "histogram", "gaugehistogram", "summary", "stateset", "info", "unknown");

    /** One family: its type, help and samples by series ({@code name{label="value",...}}, labels sorted). */
    public record Family(String name, String type, String help, Map<String, Double> samples) {}

    private final Map<String, Family> families;

    private Exposition(Map<String, Family> families) {
        this.families = families;
    }

    /** Parses the Prometheus text format 0.0.4. */
    public static Exposition prometheus(String text) {
        return parse(text, false);
    }

    /** Parses OpenMetrics 1.0 text. */
    public static Exposition openMetrics(String text) {
        return parse(text, true);
    }

    public Map<String, Family> families() {
        return families;
    }

    /**
     * The value of {@code series}, e.g. {@code hexstream_rpc_requests_total{method="x",outcome="ok"}} (labels sorted);
     * 0 if absent.
     */
    public double value(String series) {
        for (Family family : families.values()) {
            Double value = family.samples().get(series);
            if (value != null) {
                return value;
            }
        }
        return 0;
    }

    private static Exposition parse(String text, boolean openMetrics) {
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("the exposition does not end with a newline");
        }
        Map<String, Family> families = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        Family current = null;
        boolean eof = false;
        int number = 0;
        for (String line : text.substring(0, text.length() - 1).split("\n", -1)) {
            number++;
            String where = "line " + number + ": " + line;
            if (eof) {
                throw new IllegalArgumentException("after # EOF, " + where);
            }
            if (line.isEmpty()) {
                if (openMetrics) {
                    throw new IllegalArgumentException("empty line, " + where);
                }
                continue;
            }
            if (line.startsWith("#")) {
                String[] parts = line.split(" ", 4);
                if (openMetrics && line.equals("# EOF")) {
                    eof = true;
                    continue;
                }
                if (parts.length >= 3 && parts[1].equals("HELP")) {
                    name(parts[2], where);
                    if (helps.put(parts[2], parts.length == 4 ? unescapeHelp(parts[3], where) : "") != null) {
                        throw new IllegalArgumentException("second HELP, " + where);
                    }
                    current = family(families, helps, current, parts[2], null, where);
                } else if (parts.length == 4 && parts[1].equals("TYPE")) {
                    name(parts[2], where);
                    if (!(openMetrics ? OPENMETRICS_TYPES : TYPES).contains(parts[3])) {
                        throw new IllegalArgumentException("unknown type, " + where);
                    }
                    current = family(families, helps, current, parts[2], parts[3], where);
                } else if (parts.length == 4 && parts[1].equals("UNIT") && openMetrics) {
                    name(parts[2], where);
                } else if (openMetrics) {
                    throw new IllegalArgumentException("unknown descriptor, " + where);
                }
                continue;
            }
            sample(line, where, current, openMetrics);
        }
        if (openMetrics && !eof) {
            throw new IllegalArgumentException("no # EOF at the end");
        }
        Map<String, Family> done = new LinkedHashMap<>();
        for (Family family : families.values()) {
            if (family.type() == null) {
                throw new IllegalArgumentException(family.name() + " has no TYPE");
            }
            String help = helps.get(family.name());
            if (help == null || help.isEmpty()) {
                throw new IllegalArgumentException(family.name() + " has no HELP");
            }
            Family complete = new Family(family.name(), family.type(), help, family.samples());
            if (complete.type().equals("histogram")) {
                checkHistogram(complete);
            }
            done.put(complete.name(), complete);
        }
        return new Exposition(done);
    }

    /** The family {@code name} (a new one, or the current one given its TYPE); a family seen before is refused. */
    private static Family family(
            Map<String, Family> families,
            Map<String, String> helps,
            Family current,
            String name,
            String type,
            String where) {
        if (current != null && current.name().equals(name)) {
            if (type != null) {
                if (current.type() != null || !current.samples().isEmpty()) {
                    throw new IllegalArgumentException("TYPE after the samples or twice, " + where);
                }
                Family typed = new Family(name, type, null, current.samples());
                families.put(name, typed);
                return typed;
            }
            return current;
        }
        if (families.containsKey(name)) {
            throw new IllegalArgumentException("family given twice or interleaved, " + where);
        }
        Family family = new Family(name, type, null, new LinkedHashMap<>());
        families.put(name, family);
        return family;
    }

    private static void sample(String line, String where, Family family, boolean openMetrics) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = name(line.substring(0, i), where);
        TreeMap<String, String> labels = new TreeMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels, where);
        }
        if (i >= line.length() || line.charAt(i) != ' ') {
            throw new IllegalArgumentException("no value, " + where);
        }
        String[] rest = line.substring(i + 1).split(" ", -1);
        if (rest.length > 2 || rest[0].isEmpty()) {
            throw new IllegalArgumentException("value and timestamp expected, " + where);
        }
        double value = number(rest[0], where);
        if (rest.length == 2) {
            number(rest[1], where);
        }
        if (family == null || !belongs(name, family)) {
            throw new IllegalArgumentException("a sample outside its family (or before its TYPE), " + where);
        }
        StringBuilder series = new StringBuilder(name);
        if (!labels.isEmpty()) {
            series.append('{');
            labels.forEach((k, v) -> series.append(k).append("=\"").append(v).append("\","));
            series.setCharAt(series.length() - 1, '}');
        }
        if (family.samples().put(series.toString(), value) != null) {
            throw new IllegalArgumentException("duplicate series, " + where);
        }
    }

    private static boolean belongs(String sample, Family family) {
        String base = family.name();
        if (family.type() == null) {
            return false;
        }
        return switch (family.type()) {
            case "histogram" ->
                sample.equals(base + "_bucket")
                        || sample.equals(base + "_sum")
                        || sample.equals(base + "_count")
                        || sample.equals(base + "_created");
            case "summary" ->
                sample.equals(base)
                        || sample.equals(base + "_sum")
                        || sample.equals(base + "_count")
                        || sample.equals(base + "_created");
            case "counter" -> sample.equals(base) || sample.equals(base + "_total") || sample.equals(base + "_created");
            case "info" -> sample.equals(base + "_info");
            default -> sample.equals(base);
        };
    }

    /** Reads {@code name="value",...}} from {@code from}; returns the index after the brace. */
    private static int labels(String line, int from, Map<String, String> labels, String where) {
        int i = from;
        while (true) {
            if (i < line.length() && line.charAt(i) == '}') {
                return i + 1;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0) {
                throw new IllegalArgumentException("label without =, " + where);
            }
            String label = line.substring(i, eq);
            if (!LABEL_NAME.matcher(label).matches()) {
                throw new IllegalArgumentException("bad label name " + label + ", " + where);
            }
            if (eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                throw new IllegalArgumentException("label value not quoted, " + where);
            }
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < line.length() && line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\') {
                    char next = j + 1 < line.length() ? line.charAt(++j) : 0;
                    value.append(
                            switch (next) {
                                case '\\' -> '\\';
                                case '"' -> '"';
                                case 'n' -> '\n';
                                default -> throw new IllegalArgumentException("bad escape in a label value, " + where);
                            });
                } else {
                    value.append(c);
                }
            }
            if (j >= line.length()) {
                throw new IllegalArgumentException("unterminated label value, " + where);
            }
            if (labels.put(label, value.toString()) != null) {
                throw new IllegalArgumentException("label " + label + " twice, " + where);
            }
            i = j + 1;
            if (i < line.length() && line.charAt(i) == ',') {
                i++;
            } else if (i >= line.length() || line.charAt(i) != '}') {
                throw new IllegalArgumentException("expected , or }, " + where);
            }
        }
    }

    private static String name(String name, String where) {
        if (!METRIC_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bad metric name " + name + ", " + where);
        }
        return name;
    }

    private static double number(String text, String where) {
        switch (text) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a number: " + text + ", " + where);
                }
        }
    }

    private static String unescapeHelp(String help, String where) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            if (c == '\\') {
                char next = i + 1 < help.length() ? help.charAt(++i) : 0;
                out.append(
                        switch (next) {
                            case '\\' -> '\\';
                            case 'n' -> '\n';
                            case '"' -> '"';
                            default -> throw new IllegalArgumentException("bad escape in HELP, " + where);
                        });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Per label set: buckets cumulative in {@code le} order, {@code +Inf} present and equal to the count. */
    private static void checkHistogram(Family family) {
        Map<String, TreeMap<Double, Double>> buckets = new TreeMap<>();
        Map<String, Double> counts = new TreeMap<>();
        for (Map.Entry<String, Double> sample : family.samples().entrySet()) {
            String series = sample.getKey();
            String labels = series.contains("{") ? series.substring(series.indexOf('{')) : "";
            if (series.startsWith(family.name() + "_bucket")) {
                java.util.regex.Matcher le = Pattern.compile("le=\"([^\"]*)\"").matcher(labels);
                if (!le.find()) {
                    throw new IllegalArgumentException(series + ": a bucket without le");
                }
                String others = labels.replace(le.group(0), "")
                        .replace("{,", "{")
                        .replace(",,", ",")
                        .replace(",}", "}");
                buckets.computeIfAbsent(others.equals("{}") ? "" : others, k -> new TreeMap<>())
                        .put(number(le.group(1), series), sample.getValue());
            } else if (series.startsWith(family.name() + "_count")) {
                counts.put(labels, sample.getValue());
            }
        }
        for (Map.Entry<String, TreeMap<Double, Double>> series : buckets.entrySet()) {
            List<Double> values = new ArrayList<>(series.getValue().values());
            for (int i = 1; i < values.size(); i++) {
                if (values.get(i) < values.get(i - 1)) {
                    throw new IllegalArgumentException(family.name() + series.getKey() + ": buckets not cumulative");
                }
            }
            Double inf = series.getValue().get(Double.POSITIVE_INFINITY);
            if (inf == null || !inf.equals(counts.get(series.getKey()))) {
                throw new IllegalArgumentException(family.name() + series.getKey() + ": +Inf bucket " + inf
                        + " is not the count " + counts.get(series.getKey()));
            }
        }
    }
}
