package io.hexstream.codec.vertx;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.CountingAllocator;
import io.hexstream.codec.testing.HttpHeads;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link VertxJsonBodyWriter} in a real Vert.x {@code HttpServer}, with real clients (the JDK's {@code HttpClient}, and
 * raw sockets to leave or stall mid-body), paranoid leak detection on. The server answers every request with the
 * 128-blob {@code getBlobsV2} response (35 MB); {@code /worker} writes it from a worker thread
 * ({@code executeBlocking}) instead of the event loop.
 */
class VertxJsonBodyWriterTest {
    private static final int CHUNK = 64 * 1024;
    /** A Netty channel's default high water mark: Vert.x's HTTP/1.x write queue is full above it. */
    private static final int WRITE_QUEUE_MAX = 64 * 1024;

    private static final List<BlobFixtures.Entry> ENTRIES = BlobFixtures.randomEntries(new Random(12), 128, 0.0);
    private static final byte[] EXPECTED = BlobFixtures.jackson(1L, ENTRIES);

    private static final CountingAllocator ALLOCATOR = new CountingAllocator();
    private static final BlockingQueue<Future<Void>> WRITES = new LinkedBlockingQueue<>();
    private static Vertx vertx;
    private static HttpServer server;

    @BeforeAll
    static void startServer() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer()
                .requestHandler(VertxJsonBodyWriterTest::handle)
                .listen(0, "127.0.0.1")
                .toCompletionStage()
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    private static void handle(HttpServerRequest request) {
        if (request.path().equals("/worker")) {
            vertx.executeBlocking(
                    () -> {
                        assertFalse(io.vertx.core.Context.isOnEventLoopThread());
                        WRITES.add(VertxJsonBodyWriter.write(
                                request.response(), BlobFixtures.body(1L, ENTRIES), ALLOCATOR, CHUNK));
                        return null;
                    },
                    false);
        } else {
            WRITES.add(VertxJsonBodyWriter.write(request.response(), BlobFixtures.body(1L, ENTRIES), ALLOCATOR, CHUNK));
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static HttpResponse<byte[]> get(String path) throws Exception {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static Future<Void> nextWrite() throws InterruptedException {
        Future<Void> write = WRITES.poll(10, TimeUnit.SECONDS);
        assertTrue(write != null, "the server wrote a response");
        return write;
    }

    private static void awaitOutcome(Future<Void> write) throws Exception {
        Poll.within(write::isComplete, Duration.ofSeconds(10));
        assertTrue(write.isComplete(), "the write ended");
    }

    private static void assertAllChunksReleased() throws InterruptedException {
        Poll.within(() -> ALLOCATOR.outstanding() == 0, Duration.ofSeconds(5));
        assertEquals(0, ALLOCATOR.outstanding(), "chunk bytes not released");
    }

    @Test
    void bodiesAreByteExactFromTheEventLoopAndFromAWorker() throws Exception {
        for (String path : new String[] {"/", "/worker", "/"}) {
            HttpResponse<byte[]> response = get(path);
            assertEquals(200, response.statusCode());
            assertEquals(
                    "application/json",
                    response.headers().firstValue("content-type").orElse(null));
            assertEquals(
                    Long.toString(EXPECTED.length),
                    response.headers().firstValue("content-length").orElse(null));
            assertFalse(response.headers().firstValue("transfer-encoding").isPresent());
            assertArrayEquals(EXPECTED, response.body(), path);
            Future<Void> write = nextWrite();
            awaitOutcome(write);
            assertTrue(write.succeeded(), path);
        }
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
        for (String path : new String[] {"/", "/worker"}) {
            try (Socket leaving = request(path)) {
                leaving.getInputStream().readNBytes(1024 * 1024);
                leaving.setSoLinger(true, 0); // a reset, as well as the FIN of the next round
            }
            Future<Void> abandoned = nextWrite();
            awaitOutcome(abandoned);
            assertTrue(abandoned.failed(), "the abandoned response failed");
            assertAllChunksReleased();

            try (Socket next = request(path)) {
                InputStream in = next.getInputStream();
                String head = HttpHeads.read(in);
                assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
                assertTrue(head.contains("\r\ncontent-length: " + EXPECTED.length + "\r\n"), head);
                assertArrayEquals(EXPECTED, in.readNBytes(EXPECTED.length));
            }
            Future<Void> served = nextWrite();
            awaitOutcome(served);
            assertTrue(served.succeeded());
        }
    }

    @Test
    void aStalledClientHoldsAtMostTheWriteQueueMaximumPlusTwoChunks() throws Exception {
        ALLOCATOR.resetPeak();
        Future<Void> write;
        try (Socket stalled = request("/")) {
            stalled.getInputStream().readNBytes(64 * 1024);
            write = nextWrite();
            Thread.sleep(1500); // a slow peer, stalled: the kernel's buffers fill, then the write queue
            long peak = ALLOCATOR.peak();
            Measurements.report("stalled Vert.x client: peak outstanding chunk memory " + peak
                    + " bytes (write queue max " + WRITE_QUEUE_MAX + ", chunk " + CHUNK + ")");
            assertTrue(peak <= WRITE_QUEUE_MAX + 2L * CHUNK, "peak outstanding " + peak);
            assertTrue(ALLOCATOR.outstanding() > 0, "the stalled client left chunks waiting");
            assertFalse(write.isComplete(), "still streaming, nowhere near the end of 35 MB");
        }
        awaitOutcome(write);
        assertTrue(write.failed());
        assertAllChunksReleased();
    }

    @Test
    void outsideAVertxContextTheBodyIsReleasedAndTheWriteFails() {
        JsonBody body = BlobFixtures.body(1L, ENTRIES.subList(0, 1));
        Future<Void> write = VertxJsonBodyWriter.write(null, body);
        assertTrue(write.failed());
        assertEquals(IllegalStateException.class, write.cause().getClass());
        assertEquals(0, body.refCnt());
    }
}
