package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every line of every Java snippet in the README is a line of the consumer project
 * ({@code codec/src/it/consumer}), which {@code mvn verify} compiles against the installed codec and
 * runs: the snippets are copied from code that works, and stay so.
 */
class ReadmeSnippetsTest {
    private static final Path CODEC = Path.of(System.getProperty("user.dir"));

    @Test
    void everyJavaSnippetIsCopiedFromTheConsumerProject() throws IOException {
        Set<String> consumer;
        try (Stream<Path> files = Files.walk(CODEC.resolve("src/it/consumer/src/main/java"))) {
            consumer = files.filter(f -> f.toString().endsWith(".java")).flatMap(ReadmeSnippetsTest::lines)
                    .map(String::strip).collect(Collectors.toSet());
        }
        List<String> readme = Files.readAllLines(CODEC.resolve("../README.md"));
        List<String> missing = new ArrayList<>();
        int snippets = 0;
        boolean inJava = false;
        for (String line : readme) {
            if (line.equals("```java")) {
                inJava = true;
                snippets++;
            } else if (line.equals("```")) {
                inJava = false;
            } else if (inJava && !line.isBlank() && !consumer.contains(line.strip())) {
                missing.add(line);
            }
        }
        assertTrue(snippets >= 4, "the README's Java snippets: " + snippets);
        assertTrue(missing.isEmpty(), "README lines not in the consumer project:\n" + String.join("\n", missing));
    }

    private static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
