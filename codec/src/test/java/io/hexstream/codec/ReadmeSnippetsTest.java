package io.hexstream.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library guide ({@code codec/README.md}) shows code that compiles from its section alone: each Java snippet is a
 * whole file of the consumer project ({@code codec/src/it/consumer}), which {@code mvn verify} compiles against the
 * installed codec and runs; and its consumer {@code pom.xml} names the dependencies, versions and compiler plugin that
 * the consumer project builds with.
 */
class ReadmeSnippetsTest {
    private static final Path CODEC = Path.of(System.getProperty("user.dir"));
    private static final Path CONSUMER = CODEC.resolve("src/it/consumer");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*(?:<!--.*?-->\\s*)?<groupId>(.*?)</groupId>\\s*<artifactId>(.*?)</artifactId>"
                    + "\\s*<version>(.*?)</version>(.*?)</dependency>",
            Pattern.DOTALL);
    private static final Pattern PLACEHOLDER = Pattern.compile("@([\\w.]+)@");

    @Test
    void everyJavaSnippetIsAWholeFileOfTheConsumerProject() throws IOException {
        Map<String, String> examples = new TreeMap<>();
        try (Stream<Path> files = Files.walk(CONSUMER.resolve("src/main/java"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                examples.put(
                        file.getFileName().toString(), Files.readString(file).strip());
            }
        }
        List<String> snippets = blocks("java");
        List<String> unmatched = new ArrayList<>();
        for (String snippet : snippets) {
            if (!examples.values().remove(snippet.strip())) {
                unmatched.add(snippet.lines()
                        .filter(l -> l.contains(" class "))
                        .findFirst()
                        .orElse(snippet));
            }
        }
        assertTrue(unmatched.isEmpty(), "snippets that are not a consumer file as it is: " + unmatched);
        assertTrue(examples.isEmpty(), "consumer examples the README does not show: " + examples.keySet());
    }

    @Test
    void theConsumerPomNamesTheBuildsVersions() throws IOException {
        List<String> poms = blocks("xml").stream()
                .filter(b -> b.contains("<artifactId>hexstream-consumer<"))
                .toList();
        assertEquals(1, poms.size(), "one consumer pom.xml in the README");
        Map<String, String> readme = dependencies(poms.get(0));
        Map<String, String> consumer = dependencies(resolve(Files.readString(CONSUMER.resolve("pom.xml"))));
        consumer.values().removeIf(version -> version.endsWith(" test"));
        assertEquals(consumer, readme, "the README's dependencies (group:artifact → version)");
        assertTrue(
                poms.get(0)
                        .contains("<artifactId>maven-compiler-plugin</artifactId>\n        <version>"
                                + version(Files.readString(CODEC.resolve("../pom.xml")), "maven-compiler-plugin")
                                + "</version>"),
                "the README's pom names the build's compiler plugin version");
    }

    /** The consumer pom with each {@code @name@} replaced as the invoker does, from the root pom. */
    private static String resolve(String pom) throws IOException {
        String root = Files.readString(CODEC.resolve("../pom.xml"));
        Matcher m = PLACEHOLDER.matcher(pom);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            String value = name.equals("project.version")
                    ? element(root, "version")
                    : element(root.substring(root.indexOf("<properties>")), name);
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /** group:artifact → version of each dependency (" test" appended when its scope is test). */
    private static Map<String, String> dependencies(String pom) {
        Map<String, String> found = new TreeMap<>();
        Matcher m = DEPENDENCY.matcher(pom);
        while (m.find()) {
            found.put(m.group(1) + ":" + m.group(2), m.group(3) + (m.group(4).contains("<scope>test<") ? " test" : ""));
        }
        return found;
    }

    private static String version(String pom, String artifactId) {
        int at = pom.indexOf("<artifactId>" + artifactId + "</artifactId>");
        return element(pom.substring(at), "version");
    }

    private static String element(String xml, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">(.*?)</" + Pattern.quote(name) + ">")
                .matcher(xml);
        assertTrue(m.find(), "<" + name + ">");
        return m.group(1);
    }

    /** The fenced blocks of {@code language} in the codec's README. */
    private static List<String> blocks(String language) {
        List<String> readme;
        try {
            readme = Files.readAllLines(CODEC.resolve("README.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> blocks = new ArrayList<>();
        StringBuilder block = null;
        for (String line : readme) {
            if (block == null && line.equals("```" + language)) {
                block = new StringBuilder();
            } else if (block != null && line.equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        return blocks;
    }
}
