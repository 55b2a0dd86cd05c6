package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.dataReply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.Assume;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.ServerProcess;
import io.hexstream.server.testing.TestBlobs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the kernel sees (Linux, {@code strace -f}): the server, in a JVM of its own, answers
 * {@code eth_sendRawTransaction} only after the transaction's file was written to its temporary name, fsynced, renamed
 * into place and its directory fsynced, in that order: the socket write carrying the reply comes after the two fsyncs
 * have returned. A SIGKILL test cannot see this (the page cache survives a killed process); this one fails if any of
 * the four steps is dropped or moved after the reply.
 *
 * <p>Needs {@code strace} (Debian's package {@code strace}); without it, or where {@code ptrace} is not allowed, the
 * test is skipped with one line saying why.
 */
class SyscallOrderTest {
    private static final String SYSCALLS =
            "write,writev,pwrite64,sendto,sendmsg,fsync,fdatasync,rename,renameat,renameat2";
    /** A line of {@code strace -f -yy}: the thread id, the call and the rest. */
    private static final Pattern LINE = Pattern.compile("^(\\d+) +(?:<\\.\\.\\. )?(\\w+)(.*)$");

    @TempDir
    Path dir;

    // Each test, not the class: surefire reports a class skipped in @BeforeAll as no test at all.
    @BeforeEach
    void strace() throws Exception {
        String missing = straceMissing();
        Assume.that(missing == null, "SyscallOrderTest: " + missing);
    }

    /** Why strace cannot be used here, or {@code null} when it is installed and allowed to trace. */
    private static String straceMissing() throws Exception {
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            return "strace runs on Linux only";
        }
        if (run("strace", "-V") != 0) {
            return "strace is not installed (Debian's package strace)";
        }
        if (run("strace", "-f", "-o", "/dev/null", "true") != 0) {
            return "strace cannot trace here (ptrace not permitted)";
        }
        return null;
    }

    /** Runs {@code command} (1 minute at most), its output discarded; its exit code, -1 if it cannot start. */
    private static int run(String... command) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!process.waitFor(1, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        } catch (IOException e) {
            return -1;
        }
    }

    @Test
    void theReplyIsWrittenAfterTheFileAndItsDirectoryAreFsynced() throws Exception {
        Path data = dir.resolve("data");
        Path trace = dir.resolve("strace.txt");
        BlobTransactionBuilder tx = BlobTransactionBuilder.withCellProofs(TestBlobs.first(1));
        List<String> strace = List.of(
                "strace",
                "-f",
                "-yy",
                "-s",
                "1024",
                "--seccomp-bpf",
                "-e",
                "trace=" + SYSCALLS,
                "-o",
                trace.toString());
        try (ServerProcess server = ServerProcess.start(data, dir.resolve("server.log"), List.of("-Xmx256m"), strace)) {
            assertEquals(dataReply(1, tx.hash()), server.client().sendRawTransaction(tx.build()));
            server.stop(); // SIGTERM: strace ends with the JVM, its trace complete
        }
        List<String> lines = Files.readAllLines(trace);
        String file = data.resolve("blobs").toRealPath() + "/000000000001-" + PoolItem.keyOf(tx.hash()) + ".blob";
        String directory = data.resolve("blobs").toRealPath().toString();
        int written = completed(lines, "write", fd(file + ".tmp"));
        int fileSynced = completed(lines, "fsync", fd(file + ".tmp"));
        int renamed = completed(
                lines, "rename", args -> args.contains("\"" + file + ".tmp\", ") && args.contains("\"" + file + "\""));
        int directorySynced = completed(lines, "fsync", fd(directory));
        String result = "\\\"result\\\":\\\"" + Hex.encodeToString(tx.hash(), true) + "\\\"";
        int replied = started(lines, "write", args -> args.contains("<TCP") && args.contains(result));
        String order = "write " + written + ", fsync " + fileSynced + ", rename " + renamed + ", directory fsync "
                + directorySynced + ", reply " + replied + " (lines of " + trace + ")";
        Measurements.report("syscall order: " + order);
        assertTrue(
                written < fileSynced && fileSynced < renamed && renamed < directorySynced && directorySynced < replied,
                order);
    }

    /** Arguments whose first is a descriptor of {@code path}, as {@code -yy} shows it. */
    private static Predicate<String> fd(String path) {
        return args -> args.startsWith("(") && args.contains("<" + path + ">");
    }

    /**
     * The line at which the first call named like {@code call} (a prefix: {@code write} takes in {@code writev} and
     * {@code rename} {@code renameat2}) whose arguments match returned: its own, or that of its {@code <... resumed>}
     * in the same thread.
     */
    private static int completed(List<String> lines, String call, Predicate<String> args) {
        int start = started(lines, call, args);
        Matcher first = LINE.matcher(lines.get(start));
        assertTrue(first.matches());
        if (!lines.get(start).contains("<unfinished ...>")) {
            return start;
        }
        for (int i = start + 1; i < lines.size(); i++) {
            Matcher resumed = LINE.matcher(lines.get(i));
            if (resumed.matches()
                    && resumed.group(1).equals(first.group(1))
                    && lines.get(i).contains(" resumed>")) {
                return i;
            }
        }
        throw new AssertionError(call + " at line " + start + " never returned");
    }

    /** The line at which the first such call started; fails if there is none. */
    private static int started(List<String> lines, String call, Predicate<String> args) {
        for (int i = 0; i < lines.size(); i++) {
            Matcher line = LINE.matcher(lines.get(i));
            if (line.matches()
                    && !lines.get(i).contains(" resumed>")
                    && line.group(2).startsWith(call)
                    && args.test(line.group(3))) {
                return i;
            }
        }
        throw new AssertionError("no " + call + " call found");
    }
}
