package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.ClassFileNames;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The codec's packages reach only the libraries and the codec packages they are meant to: the core
 * ({@code io.hexstream.codec}, {@code .body}, {@code .json}, {@code .http}) Netty alone, {@code .body} (the
 * transport-neutral streamed body) no other codec package, and each integration package its one optional library (the
 * Jackson module also names tuweni's {@code Bytes}, loaded only when present). Read from the compiled classes' constant
 * pools ({@link ClassFileNames}), where every class a class refers to is named.
 */
class PackageDependenciesTest {
    private static final String CODEC = "io/hexstream/codec/";
    private static final List<String> OPTIONAL = List.of("com/fasterxml/jackson/", "io/vertx/", "org/apache/tuweni/");

    /** Each package: the optional libraries and the other codec packages it reaches; each listed reach is in use. */
    private static final Map<String, List<String>> ALLOWED = Map.of(
            "io/hexstream/codec", List.of(),
            "io/hexstream/codec/body", List.of(),
            "io/hexstream/codec/json", List.of("io/hexstream/codec", "io/hexstream/codec/body"),
            "io/hexstream/codec/http", List.of("io/hexstream/codec/body", "io/hexstream/codec/json"),
            "io/hexstream/codec/tuweni", List.of("org/apache/tuweni/", "io/hexstream/codec"),
            "io/hexstream/codec/jackson", List.of("com/fasterxml/jackson/", "org/apache/tuweni/", "io/hexstream/codec"),
            "io/hexstream/codec/vertx", List.of("io/vertx/", "io/hexstream/codec/json"));

    @Test
    void eachPackageReachesOnlyItsOwnLibrary() throws IOException, URISyntaxException {
        Path classes = Path.of(
                Hex.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, TreeSet<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String pkg = classes.relativize(file.getParent()).toString().replace('\\', '/');
                TreeSet<String> reached = found.computeIfAbsent(pkg, p -> new TreeSet<>());
                for (String named : ClassFileNames.named(file)) {
                    String other = named.substring(0, Math.max(0, named.lastIndexOf('/')));
                    if (named.startsWith(CODEC) && !other.equals(pkg)) {
                        reached.add(other);
                    }
                    OPTIONAL.stream().filter(named::startsWith).forEach(reached::add);
                }
            }
        }
        assertEquals(ALLOWED.keySet(), found.keySet(), "the codec's packages");
        found.forEach((pkg, reached) -> assertEquals(new TreeSet<>(ALLOWED.get(pkg)), reached, pkg));
    }
}
