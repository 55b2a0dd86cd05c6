package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.ipc.IpcServer;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.ServerMemory;
import io.hexstream.server.testing.ServerSockets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Engine API over IPC ({@code --ipc-path}), driven by the JDK's {@code SocketChannel} on a
 * {@code UnixDomainSocketAddress}: newline-delimited JSON-RPC without JWT, the same bytes as over HTTP and as in the
 * pool, replies in line order, the socket file mode 600 and removed at stop, a stale file replaced but a live one
 * refused, eight connections at most, stalled readers held to HTTP's memory bound, and clients that leave mid-reply.
 */
class IpcTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2). */
    private static final long BODY_LENGTH = 34 + 128 * 275_096L + 127 + 2;

    private static Path socket;
    private static EngineServerFixture server;

    @BeforeAll
    static void start() throws IOException {
        socket = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "ipc-")
                .resolve("engine.ipc");
        server = EngineServerFixture.start(Fork.OSAKA, "--ipc-path", socket.toString());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
        assertFalse(Files.exists(socket), "the socket file is removed at a clean stop");
        Files.delete(socket.getParent());
    }

    @Test
    void aGetBlobsReplyIsOneLineTheHttpResponseByteForByteAndThePoolsBlobs() throws Exception {
        List<VersionedHash> hashes = server.cycledHashes(128);
        String json = request(1, "engine_getBlobsV2", hashParams(hashes));
        byte[] overHttp = server.post(json).body();
        assertEquals(BODY_LENGTH, overHttp.length);
        try (Lines ipc = Lines.open(socket)) {
            ipc.send(json + "\n");
            byte[] reply = ipc.readLine();
            assertArrayEquals(overHttp, reply, "the reply, without a line feed of its own, then one");
            JsonNode result = MAPPER.readTree(reply).get("result");
            for (int i = 0; i < 128; i++) {
                assertBlobAndProofV2(server.server().pool().get(hashes.get(i)), result.get(i));
            }
        }
    }

    @Test
    void linesAreAnsweredInOrderWithoutJwt() throws Exception {
        List<VersionedHash> hashes = server.hashes();
        List<String> sent = List.of(
                request(1, "engine_getBlobsV2", hashParams(hashes)),
                "[" + request("\"a\"", "engine_getBlobsV2", hashParams(hashes.subList(0, 1))) + ","
                        + request(3, "engine_nosuchMethod", "[]") + "]",
                "{not json",
                request(4, "engine_exchangeCapabilities", "[[]]"));
        try (Lines ipc = Lines.open(socket)) {
            ipc.send(String.join("\n", sent) + "\r\n"); // all at once; CRLF ends a line too
            for (String json : sent) {
                assertEquals(new String(server.post(json).body(), UTF_8), new String(ipc.readLine(), UTF_8), json);
            }
        }
    }

    @Test
    void theSocketFileIsMode600() throws Exception {
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(socket));
    }

    @Test
    void aStaleFileIsReplacedButALiveOneIsRefused() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "ipc-");
        Path stale = dir.resolve("stale.ipc");
        try (SocketChannel left = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            left.bind(UnixDomainSocketAddress.of(stale)); // a socket file nothing listens on, as a killed server's
        }
        assertTrue(Files.exists(stale));
        try (EngineServerFixture replacing = EngineServerFixture.start(Fork.OSAKA, "--ipc-path", stale.toString());
                Lines ipc = Lines.open(stale)) {
            String json = request(1, "engine_exchangeCapabilities", "[[]]");
            ipc.send(json + "\n");
            assertEquals(new String(replacing.post(json).body(), UTF_8), new String(ipc.readLine(), UTF_8));
            IllegalStateException refused = assertThrows(
                    IllegalStateException.class,
                    () -> EngineServerFixture.start(Fork.OSAKA, "--ipc-path", stale.toString()));
            assertEquals(
                    "--ipc-path " + stale + ": a server is listening on it",
                    refused.getCause().getMessage());
        }
        assertFalse(Files.exists(stale));
        Files.delete(dir);
    }

    @Test
    void atMostEightConnections() throws Exception {
        List<Lines> open = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                open.add(Lines.open(socket));
            }
            String json = request(1, "engine_exchangeCapabilities", "[[]]");
            for (Lines ipc : open) { // each is served
                ipc.send(json + "\n");
                ipc.readLine();
            }
            try (Lines ninth = Lines.open(socket)) {
                // closed at accept: the request may already meet the closed socket, else its reply never comes
                assertThrows(
                        IOException.class,
                        () -> {
                            ninth.send(json + "\n");
                            ninth.readLine();
                        },
                        "the ninth is closed at accept");
            }
        } finally {
            for (Lines ipc : open) {
                ipc.close();
            }
        }
    }

    @Test
    void clientsThatLeaveMidReplyLeaveNoLeakAndTheServerServesOn() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        byte[] overHttp = server.post(json).body();
        Random random = new Random(25);
        for (int i = 0; i < 16; i++) {
            Lines ipc = Lines.open(socket);
            ipc.send(json + "\n" + json + "\n");
            ipc.readExactly(i % 4 == 0 ? 0 : random.nextInt(1 << 20));
            ipc.close();
        }
        assertEquals(
                0, ServerSockets.awaitUnixAtMost(socket, 0, Duration.ofSeconds(10)), "the server saw the hang-ups");
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
        try (Lines ipc = Lines.open(socket)) {
            ipc.send(json + "\n");
            assertArrayEquals(overHttp, ipc.readLine());
        }
    }

    @Test
    void stalledReadersPinNoMoreThanOverHttp() throws Exception {
        String json = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        byte[] overHttp = server.post(json).body();
        List<Lines> stalled = new ArrayList<>();
        // The connections of the tests before closed on the server's side: all 8 places free.
        assertEquals(0, ServerSockets.awaitUnixAtMost(socket, 0, Duration.ofSeconds(10)));
        long before = ServerMemory.direct();
        long peak;
        try (ServerMemory.Peak memory = new ServerMemory.Peak()) {
            try {
                for (int i = 0; i < IpcServer.MAX_CONNECTIONS; i++) {
                    Lines ipc = Lines.open(socket);
                    stalled.add(ipc);
                    ipc.send(json + "\n");
                }
                // Slow peers: the readers stay stalled for 2 s, each reply produced up to the write water mark.
                Thread.sleep(2000);
                assertArrayEquals(overHttp, stalled.get(0).readLine(), "a stalled reader that resumes");
            } finally {
                for (Lines ipc : stalled) {
                    ipc.close();
                }
            }
            peak = memory.bytes();
        }
        // StalledReadersTest's bound, 1 MiB a stalled connection (the water mark's 512 KiB and a chunk).
        assertTrue(
                peak - before < IpcServer.MAX_CONNECTIONS * (1L << 20),
                "direct memory grew by " + (peak - before) + " bytes");
        assertEquals(0, ServerSockets.awaitUnixAtMost(socket, 0, Duration.ofSeconds(10)));
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    /** A client of the socket: lines out, lines in (read as bytes, up to each line feed). */
    private static final class Lines implements AutoCloseable {
        private final SocketChannel channel;
        private final ByteBuffer in = ByteBuffer.allocate(1 << 16).flip();

        private Lines(SocketChannel channel) {
            this.channel = channel;
        }

        static Lines open(Path path) throws IOException {
            return new Lines(SocketChannel.open(UnixDomainSocketAddress.of(path)));
        }

        void send(String text) throws IOException {
            ByteBuffer out = ByteBuffer.wrap(text.getBytes(UTF_8));
            while (out.hasRemaining()) {
                channel.write(out);
            }
        }

        /** The next line, without its line feed. */
        byte[] readLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            while (true) {
                if (!in.hasRemaining()) {
                    fill();
                }
                byte b = in.get();
                if (b == '\n') {
                    return line.toByteArray();
                }
                line.write(b);
            }
        }

        void readExactly(int n) throws IOException {
            for (int left = n; left > 0; left--) {
                if (!in.hasRemaining()) {
                    fill();
                }
                in.get();
            }
        }

        private void fill() throws IOException {
            in.clear();
            if (channel.read(in) < 0) {
                throw new IOException("closed by the server");
            }
            in.flip();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
