package io.hexstream.codec.testing;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes a compiled class names, read from its constant pool (JVMS §4.4): its {@code CONSTANT_Class} entries and
 * the types in its field and method descriptors, so an import, a fully qualified name, a field's type and a lambda's
 * target all count; a name only in Javadoc does not. For the package-dependency tests.
 */
public final class ClassFileNames {
    private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([^;]+);");

    private ClassFileNames() {}

    /** The internal names ({@code io/netty/buffer/ByteBuf}) that the class file {@code file} names. */
    public static Set<String> named(Path file) throws IOException {
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
