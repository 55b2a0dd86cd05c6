package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The request path's packages tell {@code metrics}; {@code metrics} depends on none of them but
 * {@code auth} (the refusal reasons), so that the dependency goes one way.
 */
class MetricsDependencyTest {
    private static final Path METRICS = Path.of("src", "main", "java", "io", "hexstream", "server", "metrics");
    private static final List<String> CALLERS = List.of("rpc", "http", "engine", "pool", "tx", "blob", "kzg");

    @Test
    void metricsImportsNoneOfTheRequestPath() throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.list(METRICS)) {
            sources = files.sorted().toList();
        }
        assertTrue(sources.contains(METRICS.resolve("ServerMetrics.java")), "the package's sources: " + sources);
        List<String> found = sources.stream().flatMap(source -> {
            try {
                return Files.readAllLines(source).stream().filter(line -> CALLERS.stream()
                        .anyMatch(p -> line.contains("io.hexstream.server." + p + ".")))
                        .map(line -> source.getFileName() + ": " + line.trim());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
        assertEquals(List.of(), found);
    }
}
