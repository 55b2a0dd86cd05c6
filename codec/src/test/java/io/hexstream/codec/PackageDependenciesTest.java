package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The codec's packages reach only the libraries they are meant to: the core ({@code io.hexstream.codec}, {@code .json},
 * {@code .http}) Netty alone, each integration package its one optional library (the Jackson module also names tuweni's
 * {@code Bytes}, loaded only when present). Read from the compiled classes' constant pools, where every class a class
 * refers to is named.
 */
class PackageDependenciesTest {
    private static final List<String> OPTIONAL = List.of(
            "com/fasterxml/jackson/",
            "io/vertx/",
            "org/apache/tuweni/",
            "io/hexstream/codec/jackson/",
            "io/hexstream/codec/vertx/",
            "io/hexstream/codec/tuweni/");

    private static final Map<String, List<String>> ALLOWED = Map.of(
            "io/hexstream/codec", List.of(),
            "io/hexstream/codec/json", List.of(),
            "io/hexstream/codec/http", List.of(),
            "io/hexstream/codec/tuweni", List.of("org/apache/tuweni/", "io/hexstream/codec/tuweni/"),
            "io/hexstream/codec/jackson",
                    List.of("com/fasterxml/jackson/", "org/apache/tuweni/", "io/hexstream/codec/jackson/"),
            "io/hexstream/codec/vertx", List.of("io/vertx/", "io/hexstream/codec/vertx/"));

    @Test
    void eachPackageReachesOnlyItsOwnLibrary() throws IOException, URISyntaxException {
        Path classes = Path.of(
                Hex.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, TreeSet<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String pkg = classes.relativize(file.getParent()).toString().replace('\\', '/');
                String pool = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                TreeSet<String> reached = found.computeIfAbsent(pkg, p -> new TreeSet<>());
                for (String prefix : OPTIONAL) {
                    if (pool.contains(prefix)) {
                        reached.add(prefix);
                    }
                }
            }
        }
        assertEquals(ALLOWED.keySet(), found.keySet(), "the codec's packages");
        found.forEach((pkg, reached) -> assertEquals(new TreeSet<>(ALLOWED.get(pkg)), reached, pkg));
    }
}
