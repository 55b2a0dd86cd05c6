package io.hexstream.server.testing;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The Prometheus project's own parsers, from its Python client: {@code prometheus_client.parser} for the text format
 * 0.0.4 and {@code prometheus_client.openmetrics.parser} (the reference parser of the OpenMetrics test suite) for
 * OpenMetrics 1.0, run by {@code python3} on an exposition through {@code src/test/python/parse_exposition.py}. The
 * build unpacks the client into {@code target/prometheus-client} before the tests
 * ({@code src/test/prometheus-client/fetch.sh}); without it, or without {@code python3}, every call fails. No family or
 * series is read twice: the script refuses that too.
 */
public final class PrometheusClientParser {
    private static final Path CLIENT = Path.of("target", "prometheus-client", "usr", "lib", "python3", "dist-packages");
    private static final Path SCRIPT = Path.of("src", "test", "python", "parse_exposition.py");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
    private static final long TIMEOUT_SECONDS = 60;

    private PrometheusClientParser() {}

    /**
     * The text format 0.0.4 as {@code prometheus_client.parser} reads it, by family name (a counter's without
     * {@code _total}, as the client names it); each family's series written as {@link Exposition} writes them, labels
     * sorted.
     */
    public static Map<String, Exposition.Family> prometheus(String text) {
        return parse("prometheus", text);
    }

    /** OpenMetrics 1.0 text as {@code prometheus_client.openmetrics.parser} reads it; as {@link #prometheus}. */
    public static Map<String, Exposition.Family> openMetrics(String text) {
        return parse("openmetrics", text);
    }

    /** Every series of {@code families} with its value, whichever family it is in. */
    public static Map<String, Double> series(Map<String, Exposition.Family> families) {
        Map<String, Double> all = new TreeMap<>();
        families.values().forEach(family -> all.putAll(family.samples()));
        return all;
    }

    private static Map<String, Exposition.Family> parse(String form, String text) {
        if (!Files.isRegularFile(CLIENT.resolve("prometheus_client").resolve("parser.py"))) {
            throw new AssertionError("the Prometheus Python client is missing from " + CLIENT.toAbsolutePath()
                    + ": the build's prometheus-client step (src/test/prometheus-client/fetch.sh) unpacks it");
        }
        try {
            Path input = Files.createTempFile("exposition", ".txt");
            Path output = Files.createTempFile("exposition", ".json");
            Path errors = Files.createTempFile("exposition", ".err");
            try {
                Files.writeString(input, text, StandardCharsets.UTF_8);
                Process python = new ProcessBuilder(
                                "python3", "-I", SCRIPT.toString(), CLIENT.toString(), form, input.toString())
                        .redirectOutput(output.toFile())
                        .redirectError(errors.toFile())
                        .start();
                if (!python.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    python.destroyForcibly();
                    throw new AssertionError("python3 did not finish parsing in " + TIMEOUT_SECONDS + " s");
                }
                if (python.exitValue() != 0) {
                    throw new AssertionError("the Prometheus " + form + " parser refused the exposition (exit "
                            + python.exitValue() + "):\n" + Files.readString(errors));
                }
                return families(JSON.readTree(output.toFile()));
            } finally {
                Files.delete(input);
                Files.delete(output);
                Files.delete(errors);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Exposition.Family> families(JsonNode json) {
        Map<String, Exposition.Family> families = new TreeMap<>();
        json.fields().forEachRemaining(family -> {
            Map<String, Double> samples = new TreeMap<>();
            family.getValue()
                    .get("samples")
                    .fields()
                    .forEachRemaining(sample ->
                            samples.put(sample.getKey(), sample.getValue().doubleValue()));
            families.put(
                    family.getKey(),
                    new Exposition.Family(
                            family.getKey(),
                            family.getValue().get("type").asText(),
                            family.getValue().get("help").asText(),
                            samples));
        });
        return families;
    }
}
