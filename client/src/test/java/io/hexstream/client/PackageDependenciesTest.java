package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([^;]+);");

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
                for (String named : namedClasses(file)) {
                    if (ALLOWED.stream().noneMatch(named::startsWith)
                            || REFUSED.stream().anyMatch(named::startsWith)) {
                        outside.add(classes.relativize(file) + " -> " + named);
                    }
                }
            }
        }
        assertEquals(Set.of(), outside);
    }

    /** The classes a class file names: its {@code CONSTANT_Class} entries and the types in its descriptors. */
    private static Set<String> namedClasses(Path file) throws IOException {
        Set<String> named = new TreeSet<>();
        try (InputStream in = Files.newInputStream(file);
                DataInputStream data = new DataInputStream(in)) {
            data.skipBytes(8); // magic, minor and major version
            int count = data.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNames = new int[count];
            int[] descriptors = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = data.readUTF();
                    case 7 -> classNames[i] = data.readUnsignedShort();
                    case 8, 16, 19, 20 ->
                        data.skipBytes(2); // String, MethodType (its descriptor is in a NameAndType too)
                    case 12 -> {
                        data.skipBytes(2);
                        descriptors[i] = data.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 17, 18 -> data.skipBytes(4);
                    case 15 -> data.skipBytes(3);
                    case 5, 6 -> {
                        data.skipBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> throw new IOException(file + ": constant pool tag " + tag);
                }
            }
            for (int i = 1; i < count; i++) {
                if (classNames[i] != 0) {
                    String name = utf8[classNames[i]];
                    addDescriptorClasses(name.startsWith("[") ? name : "L" + name + ";", named);
                }
                if (descriptors[i] != 0) {
                    addDescriptorClasses(utf8[descriptors[i]], named);
                }
            }
        }
        return named;
    }

    private static void addDescriptorClasses(String descriptor, Set<String> named) {
        Matcher m = DESCRIPTOR_CLASS.matcher(descriptor);
        while (m.find()) {
            named.add(m.group(1));
        }
    }
}
