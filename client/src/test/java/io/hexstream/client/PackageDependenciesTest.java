package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.codec.testing.ClassFileNames;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The client reaches only what a consensus client can take with it: the JDK, the codec (not its integration packages),
 * Netty's portable parts (buffers, NIO channels, handlers, HTTP; no native transport) and jackson-core. Every class
 * each compiled class names (in its constant pool: classes, and the types of fields and methods it uses) is checked
 * against that list; anything else (jackson-databind, the server, epoll) fails with the classes that name it.
 */
class PackageDependenciesTest {
    /** The packages the client's classes may name, as prefixes of internal names. */
    private static final List<String> ALLOWED = List.of(
            "java/lang/",
            "java/io/",
            "java/util/",
            "java/math/",
            "java/net/",
            "java/nio/",
            "java/security/",
            "java/time/",
            "javax/crypto/",
            "io/hexstream/client/",
            "io/hexstream/codec/",
            "io/netty/buffer/",
            "io/netty/bootstrap/",
            "io/netty/channel/",
            "io/netty/handler/",
            "io/netty/util/",
            "com/fasterxml/jackson/core/");

    /** Inside {@link #ALLOWED}, yet not taken: the codec's optional integrations and Netty's native transports. */
    private static final List<String> REFUSED = List.of(
            "io/hexstream/codec/jackson/",
            "io/hexstream/codec/tuweni/",
            "io/hexstream/codec/vertx/",
            "io/netty/channel/epoll/",
            "io/netty/channel/kqueue/",
            "io/netty/channel/uring/",
            "io/netty/channel/unix/");

    @Test
    void reachesOnlyTheJdkTheCodecNettyAndJacksonCore() throws IOException, URISyntaxException {
        Path classes = Path.of(GetBlobsResponses.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        Set<String> outside = new TreeSet<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                for (String named : ClassFileNames.named(file)) {
                    if (ALLOWED.stream().noneMatch(named::startsWith)
                            || REFUSED.stream().anyMatch(named::startsWith)) {
                        outside.add(classes.relativize(file) + " -> " + named);
                    }
                }
            }
        }
        assertEquals(Set.of(), outside);
    }
}
