package io.hexstream.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The probe tests' fixture: {@code probe} run in this JVM (its output captured), against a server or a URL, and what
 * they check of a run: its line, and the files it wrote compared with the pool's bytes.
 */
final class ProbeRuns {
    /** {@code engine_getBlobsV2 #1: 6/6 blobs, 1,650,592 bytes, first byte 0.84 ms, first blob 1.91 ms, last …}. */
    static final Pattern LINE = Pattern.compile("(engine_getBlobsV\\d) #(\\d+): (\\d+)/(\\d+) blobs, ([\\d,]+) bytes,"
            + " first byte \\d+\\.\\d\\d ms, first blob (-|\\d+\\.\\d\\d ms), last byte \\d+\\.\\d\\d ms");

    private ProbeRuns() {}

    /** {@code probe} of {@code hashes} (through a hashes file) against {@code server}, with {@code options}. */
    static Run probe(EngineServerFixture server, Path dir, List<VersionedHash> hashes, String... options)
            throws IOException {
        return probe("http://127.0.0.1:" + server.port(), dir, hashes, options);
    }

    /** {@code probe} of {@code hashes} against {@code url} with the fixture's secret, with {@code options}. */
    static Run probe(String url, Path dir, List<VersionedHash> hashes, String... options) throws IOException {
        Path secret = Files.writeString(dir.resolve("jwt.hex"), EngineServerFixture.SECRET);
        return run(concat(
                new String[] {"probe", "--url", url, "--jwt-secret", secret.toString(), "--hashes", hashes(dir, hashes)
                },
                options));
    }

    /** {@code dir/hashes.txt} listing {@code hashes}, one a line: the file {@code --hashes} names. */
    static String hashes(Path dir, List<VersionedHash> hashes) throws IOException {
        return Files.write(
                        dir.resolve("hashes.txt"),
                        hashes.stream().map(VersionedHash::toString).toList())
                .toString();
    }

    /** The command line in this JVM, its output captured. */
    static Run run(String... args) {
        CommandLine commandLine = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    static String[] concat(String[] first, String... more) {
        return Stream.concat(Arrays.stream(first), Arrays.stream(more)).toArray(String[]::new);
    }

    /** The one line of a run; its body length checked unless {@code length} is -1. */
    static Matcher assertLine(String stdout, String method, int available, int asked, long length) {
        assertTrue(stdout.endsWith("\n"), stdout);
        Matcher line = LINE.matcher(stdout.substring(0, stdout.length() - 1));
        assertTrue(line.matches(), stdout);
        assertEquals(method, line.group(1));
        assertEquals(available + "/" + asked, line.group(3) + "/" + line.group(4));
        if (length >= 0) {
            assertEquals(length, Long.parseLong(line.group(5).replace(",", "")), stdout);
        }
        return line;
    }

    /**
     * {@code out} holds exactly a {@code .blob} and a {@code .proofs} for each of {@code hashes}, the pool's bytes: the
     * blob proof for V1 ({@code v1}), the cell proofs otherwise.
     */
    static void assertBlobFiles(EngineServerFixture server, Path out, List<VersionedHash> hashes, boolean v1)
            throws IOException {
        List<String> expected = new ArrayList<>();
        for (VersionedHash hash : hashes) {
            BlobEntry entry = server.server().pool().get(hash);
            String name = hash.toString().substring(2);
            assertArrayEquals(entry.blob(), Files.readAllBytes(out.resolve(name + ".blob")));
            assertArrayEquals(
                    v1 ? entry.blobProof() : entry.cellProofs(), Files.readAllBytes(out.resolve(name + ".proofs")));
            expected.add(name + ".blob");
            expected.add(name + ".proofs");
        }
        assertEquals(expected.stream().distinct().sorted().toList(), files(out));
    }

    /** The names of the files in {@code dir}, sorted (temporary files included). */
    static List<String> files(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
