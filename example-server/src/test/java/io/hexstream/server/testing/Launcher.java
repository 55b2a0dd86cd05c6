package io.hexstream.server.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * The launcher {@code bin/hexstream-example-server} as {@code package} lays it out, for tests that run the server as a
 * user does: the script from {@code src/main/bin}, beside a {@code hexstream-example-server.jar} that is this test's
 * class path (a manifest-only jar: {@code Main-Class} {@code io.hexstream.server.cli.Main}, {@code Class-Path} every
 * entry of {@code java.class.path}, and the shaded jar's {@code Enable-Native-Access}). Made once per JVM, under
 * {@code java.io.tmpdir}.
 */
public final class Launcher {
    private static final Path SCRIPT = Path.of("src", "main", "bin", "hexstream-example-server");

    private static Path script;

    private Launcher() {}

    /** The launcher script to run with {@code sh}. */
    public static synchronized Path script() throws IOException {
        if (script == null) {
            Path home = Files.createTempDirectory("launcher");
            Path bin = Files.createDirectories(home.resolve("bin"));
            Manifest manifest = new Manifest();
            Attributes attributes = manifest.getMainAttributes();
            attributes.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            attributes.put(Attributes.Name.MAIN_CLASS, "io.hexstream.server.cli.Main");
            attributes.put(Attributes.Name.CLASS_PATH, classPath());
            attributes.putValue("Enable-Native-Access", "ALL-UNNAMED");
            try (OutputStream out = Files.newOutputStream(home.resolve("hexstream-example-server.jar"));
                    JarOutputStream jar = new JarOutputStream(out, manifest)) {
                jar.flush();
            }
            script = Files.copy(SCRIPT, bin.resolve(SCRIPT.getFileName()));
        }
        return script;
    }

    /** This JVM's class path as a manifest's {@code Class-Path}: absolute {@code file:} URLs, directories ending /. */
    private static String classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString())
                .collect(Collectors.joining(" "));
    }
}
