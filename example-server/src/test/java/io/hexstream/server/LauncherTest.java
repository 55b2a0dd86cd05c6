package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher {@code bin/hexstream-example-server} (copied there at {@code package}): the JVM options it gives, seen
 * through a {@code JAVA_HOME} whose {@code bin/java} prints its arguments. The Vector API's incubator module only when
 * the server runs; its filter of the JVM's stderr drops the JVM's warning about it, only that line, and keeps the JVM's
 * process id and exit code. (The real JVM through the launcher: {@code StartupTest}.)
 */
class LauncherTest {
    private static final Path LAUNCHER = Path.of("src", "main", "bin", "hexstream-example-server");
    private static final String VECTOR = "--add-modules jdk.incubator.vector ";
    private static final String REST = "--enable-native-access=ALL-UNNAMED -jar ";

    @TempDir
    static Path javaHome;

    @BeforeAll
    static void fakeJava() throws Exception {
        Path java = Files.createDirectories(javaHome.resolve("bin")).resolve("java");
        // With FAKE_STDERR set, prints it on stderr, its process id on stdout, and exits 3.
        Files.writeString(
                java,
                "#!/bin/sh\nif [ -n \"${FAKE_STDERR:-}\" ]; then printf \"$FAKE_STDERR\" >&2; echo $$; exit 3; fi\n"
                        + "echo \"$*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void theServerRunsWithTheVectorApi() throws Exception {
        assertEquals(VECTOR + REST + "JAR --port 8552\n", launch("--port", "8552"));
        assertEquals(VECTOR + REST + "JAR\n", launch());
    }

    @Test
    void helpVersionAndTokenRunWithoutTheIncubatorModule() throws Exception {
        for (List<String> args : List.of(
                List.of("--help"),
                List.of("-h"),
                List.of("--version"),
                List.of("-V"),
                List.of("token"),
                List.of("token", "--data-dir", "d"),
                List.of("--port", "1", "--help"))) {
            assertEquals(
                    REST + "JAR " + String.join(" ", args) + "\n",
                    launch(args.toArray(String[]::new)),
                    args.toString());
        }
    }

    @Test
    void theFilterDropsTheIncubatorWarningOnlyAndKeepsTheJvmsProcessAndExitCode() throws Exception {
        String warning = "WARNING: Using incubator modules: jdk.incubator.vector\n";
        String rest = "port 8551 on 127.0.0.1 is in use\nWARNING: Using incubator modules: jdk.incubator.vector\nlast";
        assertEquals(rest, filtered(warning + rest));
        assertEquals(
                "WARNING: Using incubator modules: jdk.incubator.vectors\n" + rest,
                filtered("WARNING: Using incubator modules: jdk.incubator.vectors\n" + rest));
        assertEquals("one line\n", filtered("one line\n"));
        assertEquals("no newline", filtered("no newline"));
        assertEquals("", filtered(warning));
    }

    /**
     * The launcher's stderr when {@code java} prints {@code stderr} there; asserts that {@code java} ran as the
     * launcher's own process (exec'd) and that its exit code, 3, is the launcher's. The launcher runs under a shell
     * that prints its process id and exit code and pipes its stderr through {@code cat}, so that the run ends once the
     * filter has written its last byte (a {@link Process} whose pipe is left unread at its exit loses what comes
     * after).
     */
    private static String filtered(String stderr) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(
                "sh",
                "-c",
                "exec 3>&1; { sh \"$0\" --port 8552 2>&1 1>&3 3>&- & echo \"launcher $!\" >&3; wait $!;"
                        + " echo \"exit $?\" >&3; } | cat >&2",
                LAUNCHER.toString());
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().put("FAKE_STDERR", stderr.replace("%", "%%").replace("\\", "\\\\"));
        builder.environment().remove("JAVA_OPTS");
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes());
        String err = new String(process.getErrorStream().readAllBytes());
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), err);
        List<String> lines = List.of(out.split("\n"));
        String launcher = lines.stream()
                .filter(line -> line.startsWith("launcher "))
                .findFirst()
                .orElseThrow()
                .substring("launcher ".length());
        assertTrue(lines.contains(launcher), out + ": java's process id is the launcher's");
        assertTrue(lines.contains("exit 3"), out);
        return err;
    }

    /** What {@code java} was given, the jar's path (beside the launcher's directory) as {@code JAR}. */
    private static String launch(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.environment().remove("JAVA_OPTS");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), output);
        return output.replaceFirst("\\S+/bin/\\.\\./hexstream-example-server\\.jar", "JAR");
    }
}
