package io.hexstream.server.cli;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.testing.ScriptedServer;
import io.hexstream.server.testing.ServerProcess.Run;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code probe} against servers written on raw socket bytes ({@link ScriptedServer}), apart from the example server's
 * framing: a 128-blob reply in one WebSocket frame is read and written out byte-exact; what no asked-for hashes allow
 * is refused in one line (a reply longer than its call's bound, an endless result array at its first entry past the
 * hashes, over HTTP, WebSocket, IPC and the SSZ routes, each served endlessly so that only stopping ends it); a ping
 * flood from a server that never reads does not make the probe buffer its pongs; and the run's deadline ends it
 * whatever the server does.
 */
class ProbeBoundsTest {
    private static final HexFormat HEX = HexFormat.of();
    /** The most a V1 reply for one hash may take: the bound README.md's probe section gives. */
    private static final int V1_ONE_HASH_MAX = 328_106;
    /** More bytes than a server can make a bounded client take before it stops reading (socket buffers included). */
    private static final long FLOOD_BOUND = 64L << 20;

    private final Random random = new Random(35);

    @Test
    void aReplyOf128BlobsInOneWebSocketFrameIsRead(@TempDir Path dir) throws Exception {
        int n = 128;
        List<VersionedHash> hashes = new ArrayList<>();
        byte[][] blobs = new byte[n][131_072];
        byte[][] proofs = new byte[n][48];
        ByteArrayOutputStream body = new ByteArrayOutputStream(34 << 20);
        body.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[".getBytes(US_ASCII));
        for (int i = 0; i < n; i++) {
            hashes.add(randomHash());
            random.nextBytes(blobs[i]);
            random.nextBytes(proofs[i]);
            body.writeBytes(("{\"blob\":\"0x" + HEX.formatHex(blobs[i]) + "\",\"proof\":\"0x" + HEX.formatHex(proofs[i])
                            + "\"}" + (i + 1 < n ? "," : ""))
                    .getBytes(US_ASCII));
        }
        body.writeBytes("]}".getBytes(US_ASCII));
        byte[] reply = body.toByteArray();
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            request(in, out);
            out.write(ScriptedServer.frameHeader(ScriptedServer.TEXT, true, reply.length));
            out.write(reply);
            out.flush();
            drain(in);
        })) {
            run = ProbeRuns.probe(webSocket(server), dir, hashes, "--method", "engine_getBlobsV1", "--out", out(dir));
        }
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV1", n, n, reply.length);
        for (int i = 0; i < n; i++) {
            String name = hashes.get(i).toString().substring(2);
            assertArrayEquals(blobs[i], Files.readAllBytes(dir.resolve("out").resolve(name + ".blob")), name);
            assertArrayEquals(proofs[i], Files.readAllBytes(dir.resolve("out").resolve(name + ".proofs")), name);
        }
    }

    @Test
    void aFrameOfTheMostTheHashesAllowIsReadAndOneByteMoreIsRefused(@TempDir Path dir) throws Exception {
        Run most = webSocketReply(dir.resolve("most"), paddedNullResult(V1_ONE_HASH_MAX), "engine_getBlobsV1");
        assertEquals(0, most.exitCode(), most.stderr());
        ProbeRuns.assertLine(most.stdout(), "engine_getBlobsV1", 0, 1, V1_ONE_HASH_MAX);

        Run over = webSocketReply(dir.resolve("over"), paddedNullResult(V1_ONE_HASH_MAX + 1), "engine_getBlobsV1");
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV1: a reply of more than 328,106 bytes, the most engine_getBlobsV1 for 1"
                                + " versioned hash can take\n"),
                over);
    }

    @Test
    void anEndlessResultOverWebSocketStopsAtTheFirstEntryPastTheHashes(@TempDir Path dir) throws Exception {
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            request(in, out);
            out.write(ScriptedServer.frameHeader(ScriptedServer.TEXT, true, Long.MAX_VALUE));
            out.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[".getBytes(US_ASCII));
            endlessNulls(out);
        })) {
            run = ProbeRuns.probe(webSocket(server), dir, List.of(randomHash()), "--method", "engine_getBlobsV3");
        }
        // The second null ends at byte 34 + 5 + 3, after the 34 bytes before the result's first entry.
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV3: result[1]: more than 1 entry (one per versioned hash asked) at byte 42\n"),
                run);
    }

    @Test
    void anEndlessResultOverHttpStopsAtTheFirstEntryPastTheHashes(@TempDir Path dir) throws Exception {
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            ScriptedServer.readRequest(in);
            out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(US_ASCII));
            ScriptedServer.chunk(out, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[null".getBytes(US_ASCII));
            byte[] nulls = ",null".repeat(8192).getBytes(US_ASCII);
            while (true) {
                ScriptedServer.chunk(out, nulls);
            }
        })) {
            run = ProbeRuns.probe(
                    "http://127.0.0.1:" + server.port(),
                    dir,
                    List.of(randomHash(), randomHash()),
                    "--method",
                    "engine_getBlobsV4",
                    "--cells",
                    "0x" + "ff".repeat(16));
        }
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV4: result[2]: more than 2 entries (one per versioned hash asked)"
                                + " at byte 47\n"),
                run);
    }

    @Test
    void anEndlessSszBodyStopsAtItsFirstBytePastTheLastEntry(@TempDir Path dir) throws Exception {
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            ScriptedServer.readRequest(in);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked"
                            + "\r\n\r\n")
                    .getBytes(US_ASCII));
            // BlobsV1Response of one entry (refactor-ssz.md): the list's offset 4, then available, blob, proof.
            byte[] entry = new byte[4 + 1 + 131_072 + 48];
            entry[0] = 4;
            entry[4] = 1;
            ScriptedServer.chunk(out, entry);
            byte[] more = new byte[65_536];
            while (true) {
                ScriptedServer.chunk(out, more);
            }
        })) {
            run = ProbeRuns.probe(
                    "http://127.0.0.1:" + server.port(),
                    dir,
                    List.of(randomHash()),
                    "--method",
                    "engine_getBlobsV1",
                    "--transport",
                    "ssz");
        }
        assertEquals(new Run(1, "", "engine_getBlobsV1: entries: bytes after the last entry at byte 131,125\n"), run);
    }

    @Test
    void anEndlessIpcLineStopsAtTheFirstEntryPastTheHashes(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("engine.ipc");
        Run run;
        try (ScriptedServer server = ScriptedServer.unix(socket, (in, out) -> {
            while (in.read() != '\n') {} // the request's line
            out.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[".getBytes(US_ASCII));
            endlessNulls(out);
        })) {
            run = ProbeRuns.run(
                    "probe",
                    "--ipc-path",
                    socket.toString(),
                    "--hash",
                    randomHash().toString(),
                    "--method",
                    "engine_getBlobsV3");
        }
        assertEquals(
                new Run(
                        1,
                        "",
                        "engine_getBlobsV3: result[1]: more than 1 entry (one per versioned hash asked) at byte 42\n"),
                run);
    }

    @Test
    void aPingIsAnsweredWithItsPong(@TempDir Path dir) throws Exception {
        byte[] ping = "are you there".getBytes(US_ASCII);
        byte[] reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[null]}".getBytes(US_ASCII);
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            request(in, out);
            out.write(ScriptedServer.frameHeader(ScriptedServer.PING, true, ping.length));
            out.write(ping);
            out.flush();
            ScriptedServer.Frame pong = ScriptedServer.readFrame(in);
            assertEquals(ScriptedServer.PONG, pong.opcode());
            assertArrayEquals(ping, pong.payload());
            out.write(ScriptedServer.frameHeader(ScriptedServer.TEXT, true, reply.length));
            out.write(reply);
            out.flush();
            drain(in);
        })) {
            run = ProbeRuns.probe(webSocket(server), dir, List.of(randomHash()), "--method", "engine_getBlobsV1");
        }
        assertEquals(0, run.exitCode(), run.stderr());
        ProbeRuns.assertLine(run.stdout(), "engine_getBlobsV1", 0, 1, reply.length);
    }

    @Test
    void aPingFloodNeverReadIsNotBufferedAndTheDeadlineEndsTheRun(@TempDir Path dir) throws Exception {
        pingFlood(dir, 2);
    }

    @Test
    @Tag("full")
    void aLongPingFloodNeverReadIsNotBuffered(@TempDir Path dir) throws Exception {
        pingFlood(dir, 60);
    }

    @Test
    void theDeadlineEndsAnUpgradeNeverAnswered(@TempDir Path dir) throws Exception {
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp(ProbeBoundsTest::drain)) {
            run = ProbeRuns.probe(webSocket(server), dir, List.of(randomHash()), "--timeout", "1");
        }
        assertEquals(new Run(1, "", "engine_getBlobsV2: no response within the run's 1 s (--timeout)\n"), run);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Pings of 125 bytes, as fast as the socket takes them, never reading the pongs, until the probe's deadline of
     * {@code seconds} ends the run: the bytes the server could write stay under {@link #FLOOD_BOUND}.
     */
    private void pingFlood(Path dir, int seconds) throws Exception {
        AtomicLong written = new AtomicLong();
        byte[] pings = new byte[512 * 127];
        for (int k = 0; k < 512; k++) {
            System.arraycopy(ScriptedServer.frameHeader(ScriptedServer.PING, true, 125), 0, pings, k * 127, 2);
        }
        Run run;
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            request(in, out);
            while (true) {
                out.write(pings);
                written.addAndGet(pings.length);
            }
        })) {
            run = ProbeRuns.probe(
                    webSocket(server), dir, List.of(randomHash()), "--timeout", Integer.toString(seconds));
        }
        assertEquals(
                new Run(1, "", "engine_getBlobsV2: no response within the run's " + seconds + " s (--timeout)\n"), run);
        assertTrue(written.get() < FLOOD_BOUND, written + " bytes of pings taken");
    }

    private Run webSocketReply(Path dir, byte[] reply, String method) throws Exception {
        Files.createDirectories(dir);
        try (ScriptedServer server = ScriptedServer.tcp((in, out) -> {
            request(in, out);
            out.write(ScriptedServer.frameHeader(ScriptedServer.TEXT, true, reply.length));
            out.write(reply);
            out.flush();
            drain(in);
        })) {
            return ProbeRuns.probe(webSocket(server), dir, List.of(randomHash()), "--method", method);
        }
    }

    /** {@code {"jsonrpc":"2.0","id":1,"result":[null]}} with spaces before its last bracket, {@code length} bytes. */
    private static byte[] paddedNullResult(int length) {
        byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[null".getBytes(US_ASCII);
        byte[] reply = Arrays.copyOf(head, length);
        Arrays.fill(reply, head.length, length - 2, (byte) ' ');
        reply[length - 2] = ']';
        reply[length - 1] = '}';
        return reply;
    }

    /** Accepts the upgrade and reads the request's frame. */
    private static void request(InputStream in, OutputStream out) throws IOException {
        ScriptedServer.acceptWebSocket(in, out);
        ScriptedServer.Frame request = ScriptedServer.readFrame(in);
        assertEquals(ScriptedServer.TEXT, request.opcode());
    }

    /** {@code null,null,…} until the client goes. */
    private static void endlessNulls(OutputStream out) throws IOException {
        byte[] nulls = "null,".repeat(8192).getBytes(US_ASCII);
        while (true) {
            out.write(nulls);
        }
    }

    /** Reads until the client closes. */
    private static void drain(InputStream in, OutputStream out) throws IOException {
        drain(in);
    }

    private static void drain(InputStream in) throws IOException {
        while (in.read() >= 0) {}
    }

    private VersionedHash randomHash() {
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        hash[0] = 0x01;
        return VersionedHash.wrap(hash);
    }

    private static String webSocket(ScriptedServer server) throws IOException {
        return "ws://127.0.0.1:" + server.port() + "/";
    }

    private static String out(Path dir) {
        return dir.resolve("out").toString();
    }
}
