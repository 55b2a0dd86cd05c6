package io.hexstream.codec.vertx;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.CountingAllocator;
import io.hexstream.codec.testing.HttpHeads;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.Poll;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link VertxResponseOutputStream} in a real Vert.x {@code HttpServer}, Jackson writing into it from a worker thread
 * ({@code executeBlocking}) as Besu's {@code JsonRpcObjectExecutor} does, with real clients (the JDK's
 * {@code HttpClient}, and raw sockets to leave or stall mid-body), paranoid leak detection on. Every request is
 * answered with the 128-blob {@code getBlobsV2} response (35 MB): {@code /besu} by Besu's path (tuweni's
 * {@code toHexString()} Strings, Jackson into {@link JsonResponseStreamerModel}); {@code /stream} by {@code Bytes}
 * fields with {@link HexModule} into the stream; {@code /sized} the same with a {@code Content-Length};
 * {@code /timeout} the same with a drain timeout of 300 ms; {@code /event-loop} tries the stream on the event loop.
 */
class VertxResponseOutputStreamTest {
    private static final int CHUNK = 64 * 1024;
    /** A Netty channel's default high water mark: Vert.x's HTTP/1.x write queue is full above it. */
    private static final int WRITE_QUEUE_MAX = 64 * 1024;

    private static final List<BlobFixtures.Entry> ENTRIES = BlobFixtures.randomEntries(new Random(24), 128, 0.0);
    /** Jackson from {@code HexFormat} Strings: the bytes both paths must send. */
    private static final byte[] EXPECTED = BlobFixtures.jackson(1L, ENTRIES);

    /** Besu's {@code BlobAndProofV2} today: Strings. */
    record StringsResult(String blob, List<String> proofs) {}

    /** The same with tuweni values, as the stream's users hold them. */
    record BytesResult(Bytes blob, List<Bytes48> proofs) {}

    record Response(String jsonrpc, long id, Object result) {}

    /** Besu's {@code JsonRpcObjectExecutor} writer: no flush passed on, the stream closed by Jackson. */
    private static final ObjectWriter BESU = besuWriter(new ObjectMapper());

    private static final ObjectWriter HEX_MODULE = besuWriter(new ObjectMapper().registerModule(new HexModule()));

    private static ObjectWriter besuWriter(ObjectMapper mapper) {
        return mapper.writer()
                .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
                .with(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    }

    /**
     * Besu's {@code ethereum/api/.../jsonrpc/JsonResponseStreamer.java} as it writes: chunked, each write copied into a
     * new heap {@code Buffer} and written without waiting for a drain, {@code close()} ending the response.
     */
    private static final class JsonResponseStreamerModel extends OutputStream {
        private final HttpServerResponse response;

        JsonResponseStreamerModel(HttpServerResponse response) {
            this.response = response.setChunked(true);
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            response.write(Buffer.buffer(length).appendBytes(bytes, offset, length));
        }

        @Override
        public void close() {
            response.end();
        }
    }

    /** How a handler ended: {@code failure} is {@code null} if it wrote its response whole. */
    record Outcome(String path, Throwable failure) {}

    private static final CountingAllocator ALLOCATOR = new CountingAllocator();
    private static final BlockingQueue<Outcome> OUTCOMES = new LinkedBlockingQueue<>();
    private static Vertx vertx;
    private static HttpServer server;

    @BeforeAll
    static void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(VertxResponseOutputStreamTest::handle)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static void handle(HttpServerRequest request) {
        String path = request.path();
        HttpServerResponse response = request.response().putHeader("Content-Type", "application/json");
        if (path.equals("/event-loop")) {
            try {
                new VertxResponseOutputStream(response, ALLOCATOR, CHUNK);
                OUTCOMES.add(new Outcome(path, null));
                response.setStatusCode(200).end();
            } catch (IllegalStateException e) {
                OUTCOMES.add(new Outcome(path, e));
                response.setStatusCode(500).end(e.getMessage());
            }
            return;
        }
        vertx.executeBlocking(
                () -> {
                    Throwable failure = null;
                    try {
                        respond(path, response);
                    } catch (Exception | AssertionError e) {
                        failure = e;
                    }
                    OUTCOMES.add(new Outcome(path, failure));
                    return null;
                },
                false);
    }

    /** On the worker, as Besu's executor: the result built, then written by Jackson into the stream. */
    private static void respond(String path, HttpServerResponse response) throws IOException {
        assertFalse(Context.isOnEventLoopThread());
        if (path.equals("/besu")) {
            BESU.writeValue(new JsonResponseStreamerModel(response), new Response("2.0", 1, stringsResult()));
            return;
        }
        if (path.equals("/sized")) {
            response.putHeader("Content-Length", Integer.toString(EXPECTED.length));
        }
        VertxResponseOutputStream stream = new VertxResponseOutputStream(response, ALLOCATOR, CHUNK);
        if (path.equals("/timeout")) {
            stream.drainTimeout(Duration.ofMillis(300));
        }
        HEX_MODULE.writeValue(stream, new Response("2.0", 1, bytesResult()));
        assertThrows(IOException.class, () -> stream.write('x'), "a write after close");
        stream.close(); // again: nothing
    }

    private static List<StringsResult> stringsResult() {
        return ENTRIES.parallelStream()
                .map(e -> new StringsResult(
                        Bytes.wrap(e.blob()).toHexString(),
                        proofs(e).stream().map(Bytes::toHexString).toList()))
                .toList();
    }

    private static List<BytesResult> bytesResult() {
        return ENTRIES.stream()
                .map(e -> new BytesResult(Bytes.wrap(e.blob()), proofs(e)))
                .toList();
    }

    private static List<Bytes48> proofs(BlobFixtures.Entry entry) {
        List<Bytes48> proofs = new ArrayList<>(BlobFixtures.CELL_PROOFS);
        for (int i = 0; i < BlobFixtures.CELL_PROOFS; i++) {
            proofs.add(Bytes48.wrap(entry.proofs(), i * BlobFixtures.PROOF_SIZE));
        }
        return proofs;
    }

    private static HttpResponse<byte[]> post(String path) throws Exception {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static Outcome nextOutcome(String path) throws InterruptedException {
        Outcome outcome = OUTCOMES.poll(10, TimeUnit.SECONDS);
        assertTrue(outcome != null, "the handler of " + path + " ended");
        assertEquals(path, outcome.path());
        return outcome;
    }

    private static void assertAllChunksReleased() throws InterruptedException {
        Poll.within(() -> ALLOCATOR.outstanding() == 0, Duration.ofSeconds(5));
        assertEquals(0, ALLOCATOR.outstanding(), "chunk bytes not released");
    }

    @Test
    void aHexModuleResponseIsByteExactWithBesusPath() throws Exception {
        HttpResponse<byte[]> besu = post("/besu");
        assertNull(nextOutcome("/besu").failure());
        assertEquals(200, besu.statusCode());
        assertArrayEquals(EXPECTED, besu.body(), "Besu's path against Jackson on HexFormat Strings");

        HttpResponse<byte[]> stream = post("/stream");
        assertNull(nextOutcome("/stream").failure());
        assertEquals(200, stream.statusCode());
        assertEquals(
                "application/json", stream.headers().firstValue("content-type").orElse(null));
        assertEquals("chunked", stream.headers().firstValue("transfer-encoding").orElse(null));
        assertArrayEquals(besu.body(), stream.body());
        assertAllChunksReleased();
    }

    @Test
    void aContentLengthSetByTheCallerIsKept() throws Exception {
        HttpResponse<byte[]> sized = post("/sized");
        assertNull(nextOutcome("/sized").failure());
        assertEquals(
                Integer.toString(EXPECTED.length),
                sized.headers().firstValue("content-length").orElse(null));
        assertFalse(sized.headers().firstValue("transfer-encoding").isPresent());
        assertArrayEquals(EXPECTED, sized.body());
        assertAllChunksReleased();
    }

    private static Socket request(String path) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(64 * 1024);
        socket.connect(new InetSocketAddress("127.0.0.1", server.actualPort()));
        socket.getOutputStream()
                .write(("POST " + path + " HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n").getBytes(US_ASCII));
        return socket;
    }

    @Test
    void aClientLeavingMidBodyLeavesNoLeakAndTheServerServesTheNext() throws Exception {
        try (Socket leaving = request("/stream")) {
            leaving.getInputStream().readNBytes(1024 * 1024);
            leaving.setSoLinger(true, 0); // a reset
        }
        assertInstanceOf(IOException.class, nextOutcome("/stream").failure());
        assertAllChunksReleased();

        try (Socket next = request("/sized")) {
            InputStream in = next.getInputStream();
            String head = HttpHeads.read(in);
            assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
            assertArrayEquals(EXPECTED, in.readNBytes(EXPECTED.length));
        }
        assertNull(nextOutcome("/sized").failure());
        assertAllChunksReleased();
    }

    @Test
    void aStalledClientHoldsAtMostTheWriteQueueMaximumPlusTwoChunks() throws Exception {
        ALLOCATOR.resetPeak();
        try (Socket stalled = request("/stream")) {
            stalled.getInputStream().readNBytes(64 * 1024);
            Thread.sleep(1500); // a slow peer, stalled: the kernel's buffers fill, then the write queue
            long peak = ALLOCATOR.peak();
            Measurements.report("stalled stream client: peak outstanding chunk memory " + peak
                    + " bytes (write queue max " + WRITE_QUEUE_MAX + ", chunk " + CHUNK + ")");
            assertTrue(peak <= WRITE_QUEUE_MAX + 2L * CHUNK, "peak outstanding " + peak);
            assertTrue(ALLOCATOR.outstanding() > 0, "the stalled client left chunks waiting");
            assertTrue(OUTCOMES.isEmpty(), "still writing, nowhere near the end of 35 MB");
        }
        assertInstanceOf(IOException.class, nextOutcome("/stream").failure());
        assertAllChunksReleased();
    }

    @Test
    void aWriteQueueNotDrainingWithinTheTimeoutResetsTheResponse() throws Exception {
        try (Socket stalled = request("/timeout")) {
            InputStream in = stalled.getInputStream();
            in.readNBytes(64 * 1024);
            Outcome outcome = nextOutcome("/timeout");
            assertInstanceOf(IOException.class, outcome.failure());
            assertTrue(outcome.failure().getMessage().contains("did not drain within 300 ms"), outcome.toString());
            // The chunk being filled is released; the one Vert.x holds, when the connection closes.
            assertTrue(ALLOCATOR.outstanding() <= CHUNK, "outstanding " + ALLOCATOR.outstanding());
            stalled.setSoTimeout(10_000);
            try {
                while (in.read(new byte[64 * 1024]) >= 0) {
                    // what the kernel and the write queue held, then the end of the reset response's connection
                }
            } catch (SocketException reset) {
                // a connection reset ends it as well
            }
        }
        assertAllChunksReleased();
    }

    @Test
    void onAnEventLoopTheStreamIsRefused() throws Exception {
        HttpResponse<byte[]> refused = post("/event-loop");
        Throwable failure = nextOutcome("/event-loop").failure();
        assertInstanceOf(IllegalStateException.class, failure);
        assertEquals(500, refused.statusCode());
        assertEquals(failure.getMessage(), new String(refused.body(), US_ASCII));
        assertEquals(0, ALLOCATOR.outstanding());
    }
}
