package io.hexstream.server.testing;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.hexstream.codec.testing.Assume;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The Prometheus project's own parsers, from its Python client: {@code prometheus_client.parser} for the text format
 * 0.0.4 and {@code prometheus_client.openmetrics.parser} (the reference parser of the OpenMetrics test suite) for
 * OpenMetrics 1.0, run by {@code python3} on an exposition through {@code src/test/python/parse_exposition.py}. No
 * family or series is read twice: the script refuses that too.
 *
 * <p>The client is the machine's: the first of {@code /usr/bin/python3} (which sees Debian's
 * {@code python3-prometheus-client}) and the {@code python3} on the path that imports it; the system property
 * {@value #CLIENT_PROPERTY} may name a directory holding the package (e.g. {@code pip install --target DIR
 * prometheus-client}), put first on that interpreter's path. A test calls {@link #assumeInstalled()} first: without the
 * client it is skipped with one line saying what to install.
 */
public final class PrometheusClientParser {
    /** The system property naming a directory that holds the package {@code prometheus_client}; optional. */
    public static final String CLIENT_PROPERTY = "hexstream.test.prometheusClient";

    private static final String CLIENT = System.getProperty(CLIENT_PROPERTY, "");
    private static final List<String> INTERPRETERS = List.of("/usr/bin/python3", "python3");
    private static final String PYTHON = interpreter();
    private static final Path SCRIPT = Path.of("src", "test", "python", "parse_exposition.py");
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();
    private static final long TIMEOUT_SECONDS = 60;

    private PrometheusClientParser() {}

    /** Skips the calling test, with one line saying what to install, where no interpreter imports the client. */
    public static void assumeInstalled() {
        Assume.that(
                PYTHON != null,
                "the Prometheus Python client is not installed (Debian's package python3-prometheus-client;"
                        + " or pip install --target DIR prometheus-client and -D" + CLIENT_PROPERTY + "=DIR)");
    }

    /** The first of {@link #INTERPRETERS} that imports both parsers, or {@code null}. */
    private static String interpreter() {
        for (String python : INTERPRETERS) {
            try {
                Process process = new ProcessBuilder(
                                python,
                                "-I",
                                "-c",
                                "import sys; sys.path.insert(0, sys.argv[1]) if sys.argv[1] else None;"
                                        + " import prometheus_client.parser, prometheus_client.openmetrics.parser",
                                CLIENT)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                } else if (process.exitValue() == 0) {
                    return python;
                }
            } catch (IOException e) {
                // not installed: the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

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
        assumeInstalled();
        try {
            Path input = Files.createTempFile("exposition", ".txt");
            Path output = Files.createTempFile("exposition", ".json");
            Path errors = Files.createTempFile("exposition", ".err");
            try {
                Files.writeString(input, text, StandardCharsets.UTF_8);
                Process python = new ProcessBuilder(PYTHON, "-I", SCRIPT.toString(), CLIENT, form, input.toString())
                        .redirectOutput(output.toFile())
                        .redirectError(errors.toFile())
                        .start();
                if (!python.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    python.destroyForcibly();
                    throw new AssertionError(PYTHON + " did not finish parsing in " + TIMEOUT_SECONDS + " s");
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
