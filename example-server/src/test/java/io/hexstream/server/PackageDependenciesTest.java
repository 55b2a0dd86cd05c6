package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * The server's packages point one way along the request's path (DESIGN.md): {@code exchange} (the reply seam and the
 * in-order core) knows no transport, {@code http} knows no method and no encoding, nor do the message transports
 * ({@code message}, {@code ws}, {@code ipc}), {@code rpc} is JSON-RPC 2.0 alone, {@code metrics} is told by the request
 * path and tells none of it, {@code text} (peer text escaped for logs and terminals) knows none of the others. Read
 * from the compiled classes' constant pools, where every class a class refers to is named, so an import, a fully
 * qualified name and a lambda's target all count.
 */
class PackageDependenciesTest {
    private static final String SERVER = "io/hexstream/server/";

    /** Each package and the server packages it must not reach. */
    private static final Map<String, List<String>> FORBIDDEN = Map.of(
            "exchange",
                    List.of(
                            "http", "message", "ws", "ipc", "rpc", "engine", "ssz", "blob", "cache", "pool", "tx",
                            "kzg"),
            "http", List.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg"),
            "rpc", List.of("engine", "blob", "cache", "ssz", "pool", "tx", "kzg"),
            "message", List.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg"),
            "ws", List.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg"),
            "ipc", List.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg"),
            "metrics", List.of("rpc", "http", "exchange", "engine", "ssz", "pool", "tx", "blob", "kzg", "cache"),
            "text",
                    List.of(
                            "http",
                            "exchange",
                            "rpc",
                            "message",
                            "ws",
                            "ipc",
                            "metrics",
                            "probe",
                            "auth",
                            "engine",
                            "ssz",
                            "blob",
                            "cache",
                            "pool",
                            "tx",
                            "kzg"));

    @Test
    void eachPackageReachesNoneOfWhatItMustNotKnow() throws IOException, URISyntaxException {
        Path classes = Path.of(ExampleServer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Map<String, TreeSet<String>> found = new TreeMap<>();
        for (Map.Entry<String, List<String>> rule : FORBIDDEN.entrySet()) {
            Path dir = classes.resolve(SERVER + rule.getKey());
            TreeSet<String> reached = new TreeSet<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    String pool = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                    for (String other : rule.getValue()) {
                        if (pool.contains(SERVER + other + "/")) {
                            reached.add(file.getFileName() + " -> " + other);
                        }
                    }
                }
            }
            found.put(rule.getKey(), reached);
        }
        Map<String, TreeSet<String>> none = new TreeMap<>();
        FORBIDDEN.keySet().forEach(pkg -> none.put(pkg, new TreeSet<>()));
        assertEquals(none, found);
    }

    /** The getBlobs client is the client module's ({@code io.hexstream.client}); the server holds none of its own. */
    @Test
    void holdsNoClientPackage() throws URISyntaxException {
        Path classes = Path.of(ExampleServer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        assertFalse(Files.exists(classes.resolve(SERVER + "client")), SERVER + "client");
    }
}
