package io.hexstream.server.cli;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.client.testing.CannedHttp2Server;
import io.hexstream.client.testing.CannedHttp2Server.Reply;
import io.hexstream.client.testing.CannedHttp2Server.Request;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.SszBodies;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe --http2} against an h2c server of Netty's HTTP/2 frame codec ({@link CannedHttp2Server}) answering in
 * DATA frames of 1,000 bytes: {@code --concurrency 4} is four streams on one connection, each line and each file the
 * bytes the result was written from (by Jackson); SSZ over IPC; {@code --concurrency} and {@code --http2} misused are
 * one-line usage errors.
 */
class ProbeHttp2Test {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    private final Random random = new Random(34);
    private final List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
    private final List<VersionedHash> hashes =
            List.of(VersionedHash.wrap(Responses.bytes(random, 32)), VersionedHash.wrap(Responses.bytes(random, 32)));

    @Test
    void fourStreamsOnOneConnectionWriteTheirBytes(@TempDir Path dir) throws Exception {
        try (CannedHttp2Server server = new CannedHttp2Server(this::json, 1_000)) {
            Run run = ProbeRuns.probe(
                    "http://127.0.0.1:" + server.port() + "/",
                    dir,
                    hashes,
                    "--http2",
                    "--concurrency",
                    "4",
                    "--out",
                    dir.resolve("out").toString());

            assertEquals(0, run.exitCode(), run.stderr());
            assertEquals("", run.stderr());
            String[] lines = run.stdout().split("\n");
            assertEquals(4, lines.length, run.stdout());
            for (int i = 0; i < 4; i++) {
                Matcher line = ProbeRuns.assertLine(lines[i] + "\n", "engine_getBlobsV2", 2, 2, -1);
                assertEquals(Integer.toString(i + 1), line.group(2));
            }
            assertEquals(1, server.connections());
            assertEquals(4, server.requests().size());
            assertFiles(dir.resolve("out"));
        }
    }

    @Test
    void sszOverIpc(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("engine.ipc");
        try (CannedHttp2Server server = new CannedHttp2Server(
                socket, request -> Reply.of(200, "application/octet-stream", SszBodies.v2(blobs)), 1_000)) {
            Run run = ProbeRuns.run(
                    "probe",
                    "--ipc-path",
                    socket.toString(),
                    "--http2",
                    "--transport",
                    "ssz",
                    "--hashes",
                    ProbeRuns.hashes(dir, hashes),
                    "--repeat",
                    "2",
                    "--out",
                    dir.resolve("out").toString());

            assertEquals(0, run.exitCode(), run.stderr());
            assertTrue(run.stdout().contains("engine_getBlobsV2 #2: 2/2 blobs"), run.stdout());
            assertEquals(
                    "/engine/v1/blobs/v2", server.requests().get(0).headers().get(":path"));
            assertNull(server.requests().get(0).headers().get("authorization"));
            assertFiles(dir.resolve("out"));
        }
    }

    @Test
    void misusedOptionsAreOneLineUsageErrors(@TempDir Path dir) throws Exception {
        assertUsage(
                ProbeRuns.probe("http://127.0.0.1:1/", dir, hashes, "--concurrency", "0"),
                "Invalid value for option '--concurrency': '0' is not 1 to 32");
        assertUsage(
                ProbeRuns.probe("http://127.0.0.1:1/", dir, hashes, "--concurrency", "33"),
                "Invalid value for option '--concurrency': '33' is not 1 to 32");
        assertUsage(
                ProbeRuns.probe("ws://127.0.0.1:1/", dir, hashes, "--http2"),
                "--http2 is h2c: with an http:// URL or --ipc-path, not a ws:// URL");
    }

    private static void assertUsage(Run run, String line) {
        assertEquals(2, run.exitCode(), run.stderr());
        assertTrue(run.stderr().startsWith(line + "\n"), run.stderr());
    }

    /** The JSON-RPC result of the two blobs, its id the request's. */
    private Reply json(Request request) {
        Matcher id = ID.matcher(new String(request.body(), US_ASCII));
        assertTrue(id.find());
        byte[] body = Responses.response(Long.parseLong(id.group(1)), Responses.blobEntries(blobs, false));
        return Reply.of(200, "application/json", body);
    }

    /** {@code out} holds exactly each blob and its proofs, as they were written. */
    private void assertFiles(Path out) throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String name = hashes.get(i).toString().substring(2);
            assertArrayEquals(blobs.get(i).blob(), Files.readAllBytes(out.resolve(name + ".blob")));
            ByteArrayOutputStream proofs = new ByteArrayOutputStream();
            blobs.get(i).proofs().forEach(proofs::writeBytes);
            assertArrayEquals(proofs.toByteArray(), Files.readAllBytes(out.resolve(name + ".proofs")));
            expected.add(name + ".blob");
            expected.add(name + ".proofs");
        }
        assertEquals(expected.stream().sorted().toList(), ProbeRuns.files(out));
    }
}
