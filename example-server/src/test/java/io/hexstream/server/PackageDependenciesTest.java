package io.hexstream.server;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hexstream.codec.testing.ClassFileNames;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The server's packages point one way along a request's path ({@code docs/architecture.md}), each reaching only the
 * server packages listed for it here: an allowlist of every package, the root ({@code ""}) included, so a new package
 * or a new dependency fails until it is listed. Among its rules: {@code exchange} (the reply seam between routes and
 * transports, and the in-order core) knows no transport and no route; {@code http} knows no method and no encoding, nor
 * do the message transports ({@code message}, {@code ws}, {@code ipc}); {@code rpc} is JSON-RPC 2.0 alone and knows no
 * method; {@code metrics} is told by the request path and tells none of it; {@code text} (peer text escaped for logs
 * and terminals) and {@code exec} (bounded executors) know none of the others; nothing reaches {@code cli}, the command
 * line, and no two packages reach each other, through any path. Of the codec, the two packages that tell a transport
 * are listed too: {@code codec.body} (the transport-neutral streamed body every reply seam passes) and
 * {@code codec.http} (HTTP/1.1's response encoder), which the seam and the routes never reach. Read from the compiled
 * classes' constant pools ({@link ClassFileNames}), where every class a class refers to is named, so an import, a fully
 * qualified name and a lambda's target all count.
 */
class PackageDependenciesTest {
    private static final String SERVER = "io/hexstream/server/";
    private static final String ROOT = "";
    /** The codec packages listed beside the server's, each as {@code codec.} and its name. */
    private static final List<String> CODEC = List.of("io/hexstream/codec/body/", "io/hexstream/codec/http/");

    /** Each server package and the other server packages (and listed codec packages) it may reach, each in use. */
    private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            entry(
                    ROOT,
                    Set.of(
                            "auth",
                            "blob",
                            "cache",
                            "engine",
                            "exchange",
                            "exec",
                            "http",
                            "ipc",
                            "kzg",
                            "metrics",
                            "pool",
                            "rpc",
                            "ssz",
                            "tx",
                            "ws")),
            entry("auth", Set.of("text")),
            entry("blob", Set.of()),
            entry("cache", Set.of("blob", "pool")),
            entry("cli", Set.of(ROOT, "auth", "exec", "kzg", "text")),
            entry("engine", Set.of("blob", "cache", "metrics", "pool", "rpc", "tx")),
            entry("exchange", Set.of("codec.body", "metrics")),
            entry("exec", Set.of()),
            entry("http", Set.of("auth", "codec.body", "codec.http", "exchange", "metrics", "text")),
            entry("ipc", Set.of("exchange", "http", "message", "metrics")),
            entry("kzg", Set.of("blob")),
            entry("message", Set.of("codec.body", "codec.http", "exchange", "http", "metrics")),
            entry("metrics", Set.of("auth", "text")),
            entry("pool", Set.of("blob", "metrics")),
            entry("rpc", Set.of("codec.body", "exchange", "http", "metrics")),
            entry("ssz", Set.of("blob", "codec.body", "engine", "exchange", "http", "metrics", "rpc", "text")),
            entry("text", Set.of()),
            entry("tx", Set.of("blob", "kzg", "metrics", "pool")),
            entry("ws", Set.of("exchange", "http", "message", "metrics")));

    /**
     * The brief's rules, which {@link #ALLOWED} must keep: what knows of a method, an encoding or the pool, each
     * package that must not reach it.
     */
    private static final Map<String, Set<String>> NEVER = Map.of(
            "exchange",
                    Set.of(
                            "http",
                            "message",
                            "ws",
                            "ipc",
                            "rpc",
                            "engine",
                            "ssz",
                            "blob",
                            "cache",
                            "pool",
                            "tx",
                            "kzg",
                            "cli",
                            "codec.http"),
            "http", Set.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg", "cli"),
            "message", Set.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg", "cli"),
            "ws", Set.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg", "cli"),
            "ipc", Set.of("rpc", "engine", "ssz", "blob", "cache", "pool", "tx", "kzg", "cli"),
            "rpc", Set.of("engine", "ssz", "blob", "cache", "pool", "tx", "kzg", "cli", "codec.http"),
            "metrics", Set.of("rpc", "http", "exchange", "engine", "ssz", "pool", "tx", "blob", "kzg", "cache", "cli"));

    @Test
    void eachPackageReachesOnlyWhatItsListAllows() throws IOException, URISyntaxException {
        Map<String, Map<String, Set<String>>> reaches = reaches();
        assertEquals(ALLOWED.keySet(), reaches.keySet(), "the server's packages");
        List<String> refused = new ArrayList<>();
        reaches.forEach((pkg, byPackage) -> byPackage.forEach((other, by) -> {
            if (!ALLOWED.get(pkg).contains(other)) {
                refused.add(name(pkg) + " must not reach " + name(other) + ": " + by);
            }
        }));
        ALLOWED.forEach((pkg, allowed) -> allowed.stream()
                .filter(other -> !reaches.get(pkg).containsKey(other))
                .forEach(other -> refused.add(name(pkg) + " is allowed " + name(other) + " but does not reach it")));
        assertEquals(List.of(), refused);
    }

    @Test
    void theListKeepsTheRules() {
        NEVER.forEach((pkg, never) -> assertEquals(Set.of(), intersection(ALLOWED.get(pkg), never), pkg));
        ALLOWED.forEach((pkg, allowed) -> assertFalse(allowed.contains("cli"), pkg + " reaches cli"));
        for (String pkg : List.of("text", "exec", "blob")) {
            assertEquals(Set.of(), ALLOWED.get(pkg), pkg);
        }
    }

    @Test
    void noPackageCycle() throws IOException, URISyntaxException {
        Map<String, Map<String, Set<String>>> reaches = reaches();
        List<String> cycle = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String pkg : reaches.keySet()) {
            if (cycle.isEmpty()) {
                cycleFrom(pkg, reaches, new ArrayList<>(), done, cycle);
            }
        }
        assertEquals(List.of(), cycle, "a package cycle");
    }

    /** Depth first from {@code pkg}: the first cycle met, as the packages along it, into {@code cycle}. */
    private static void cycleFrom(
            String pkg,
            Map<String, Map<String, Set<String>>> reaches,
            List<String> path,
            Set<String> done,
            List<String> cycle) {
        if (done.contains(pkg) || !cycle.isEmpty()) {
            return;
        }
        int at = path.indexOf(pkg);
        if (at >= 0) {
            path.subList(at, path.size()).forEach(p -> cycle.add(name(p)));
            cycle.add(name(pkg));
            return;
        }
        path.add(pkg);
        for (String other : reaches.getOrDefault(pkg, Map.of()).keySet()) {
            cycleFrom(other, reaches, path, done, cycle);
        }
        path.remove(path.size() - 1);
        done.add(pkg);
    }

    /** Each server package: the other server packages its classes name, each with the classes that name them. */
    private static Map<String, Map<String, Set<String>>> reaches() throws IOException, URISyntaxException {
        Path classes = Path.of(ExampleServer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Map<String, Map<String, Set<String>>> reaches = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes.resolve(SERVER))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String self = classes.relativize(file).toString().replace('\\', '/');
                String pkg = pkg(self);
                Map<String, Set<String>> byPackage = reaches.computeIfAbsent(pkg, p -> new TreeMap<>());
                for (String named : ClassFileNames.named(file)) {
                    String other = named.startsWith(SERVER) ? pkg(named) : codecPkg(named);
                    if (other != null && !other.equals(pkg)) {
                        byPackage
                                .computeIfAbsent(other, p -> new TreeSet<>())
                                .add(simple(self) + " -> " + simple(named));
                    }
                }
            }
        }
        return reaches;
    }

    /** The server package of a class's internal name: {@code ""} for the root, else {@code cli}, {@code http}, … */
    private static String pkg(String internalName) {
        String rest = internalName.substring(SERVER.length());
        int slash = rest.lastIndexOf('/');
        return slash < 0 ? ROOT : rest.substring(0, slash);
    }

    /** {@code codec.body} or {@code codec.http} for a class of that codec package, else {@code null}. */
    private static String codecPkg(String internalName) {
        for (String prefix : CODEC) {
            if (internalName.startsWith(prefix) && internalName.indexOf('/', prefix.length()) < 0) {
                return "codec." + prefix.substring("io/hexstream/codec/".length(), prefix.length() - 1);
            }
        }
        return null;
    }

    private static String simple(String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1).replace(".class", "");
    }

    private static String name(String pkg) {
        if (pkg.startsWith("codec.")) {
            return "io.hexstream." + pkg;
        }
        return pkg.isEmpty() ? "io.hexstream.server" : "io.hexstream.server." + pkg;
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new TreeSet<>(a);
        both.retainAll(b);
        return both;
    }
}
