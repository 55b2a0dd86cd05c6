package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Hxb2Files;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.TestBlobs;
import io.hexstream.server.tx.IngestWork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stopping a server while a writer is held in the middle of writing a file (the store's {@code write}, held by the
 * test): the data dir stays locked against a second server until that writer has ended, and every blocking call still
 * queued behind it gives back what it holds (no buffer leaks: the suite runs Netty's leak detector at paranoid).
 */
class StopTest {
    private static final long WAIT_SECONDS = 30;
    private static final long HELD_MILLIS = 3_000;

    @TempDir
    Path data;

    @TempDir
    Path scratch;

    /** The platform's file operations, but the first {@code write} waits until the test lets it go on. */
    private static final class HeldWrite implements StoreFiles {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);

        @Override
        public void write(Path file, byte[] bytes) throws IOException {
            if (entered.getCount() > 0) {
                entered.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            SYSTEM.write(file, bytes);
        }

        @Override
        public void force(Path file) throws IOException {
            SYSTEM.force(file);
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            SYSTEM.rename(from, to);
        }

        @Override
        public void forceDirectory(Path directory) throws IOException {
            SYSTEM.forceDirectory(directory);
        }

        @Override
        public void delete(Path file) throws IOException {
            SYSTEM.delete(file);
        }
    }

    /** A server over {@link #data}, its secret and hashes file in {@code dir}, with {@code extra} options. */
    private ServerOptions options(Path dir, String... extra) throws IOException {
        String[] options = {"--fork", "OSAKA", "--generate", "0"};
        return EngineServerFixture.options(
                data, dir, Stream.concat(Stream.of(options), Stream.of(extra)).toArray(String[]::new));
    }

    /**
     * While the server stops and its writer is held (for longer than the 2 s the responses in flight are given): a
     * second server over the same data dir is refused the lock, again and again; once the writer is let go, the stop
     * ends, and then the second server opens.
     */
    private void assertLockedUntilWriterEnds(HeldWrite files, CompletableFuture<Void> stopped) throws Exception {
        Path second = Files.createDirectory(scratch.resolve("second"));
        ServerOptions options = options(second);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HELD_MILLIS);
        while (System.nanoTime() < until) {
            StartupException refused = assertThrows(
                    StartupException.class, () -> ExampleServer.builder(options).open());
            assertTrue(refused.getMessage().contains("in use by another server"), refused.getMessage());
            assertFalse(stopped.isDone(), "stopped while writing");
            Thread.sleep(50); // a slow disk: the writer stays held while the second server tries again
        }
        files.released.countDown();
        stopped.get(WAIT_SECONDS, TimeUnit.SECONDS);
        ExampleServer.builder(options).open().close();
    }

    private static CompletableFuture<Void> stopInBackground(ExampleServer server) {
        return CompletableFuture.runAsync(server::close);
    }

    @Test
    void theIngestWriterEndsBeforeTheLockIsReleasedAndTheCallsQueuedBehindItReleaseTheirReplies() throws Exception {
        List<VersionedHash> pooled = EngineServerFixture.copySharedPool(data);
        List<BlobEntry> blobs = TestBlobs.first(1);
        byte[] raw = BlobTransactionBuilder.withCellProofs(blobs).build();
        HeldWrite files = new HeldWrite();
        ExampleServer server = ExampleServer.builder(options(scratch, "--metrics-port", "0"))
                .seams(new Seams(files, IngestWork.STANDARD))
                .open();
        List<HttpConnection> connections = new ArrayList<>();
        try {
            EngineClient client = EngineClient.authenticated(
                    server.engineAddress().getPort(), server.secret().bytes());
            assertEquals(pooled.size(), client.getBlobs("V2", pooled).size(), "served from the hex cache");
            String sendRaw =
                    EngineClient.request(2, "eth_sendRawTransaction", "[\"" + Hex.encodeToString(raw, true) + "\"]");
            connections.add(send(server, client, sendRaw));
            assertTrue(files.entered.await(WAIT_SECONDS, TimeUnit.SECONDS), "the transaction is being written");
            // each batch: a getBlobsV2 reply made at once (six blobs, held until the whole batch is answered), and a
            // transaction queued behind the one being written
            String batch = "[" + EngineClient.request(1, "engine_getBlobsV2", EngineClient.hashParams(pooled)) + ","
                    + sendRaw + "]";
            for (int i = 0; i < Startup.INGEST_QUEUE_PER_THREAD; i++) {
                connections.add(send(server, client, batch));
            }
            awaitQueued(new Scraper(server.metricsAddress()), Startup.INGEST_QUEUE_PER_THREAD);
        } finally {
            CompletableFuture<Void> stopped = stopInBackground(server);
            assertLockedUntilWriterEnds(files, stopped);
            for (HttpConnection connection : connections) {
                connection.close();
            }
        }
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
    }

    @Test
    void theBackfillWriterEndsBeforeTheLockIsReleased() throws Exception {
        BlobEntry blob = TestBlobs.first(1).get(0);
        Hxb2Files.write(data, 1, PoolItem.generated(blob));
        HeldWrite files = new HeldWrite();
        ExampleServer server = ExampleServer.builder(options(scratch))
                .seams(new Seams(files, IngestWork.STANDARD))
                .open();
        server.topUp(() -> false); // starts the backfill, which rewrites the file as HXB3
        assertTrue(files.entered.await(WAIT_SECONDS, TimeUnit.SECONDS), "the file is being rewritten");
        assertLockedUntilWriterEnds(files, stopInBackground(server));
        try (Stream<Path> stored = Files.list(data.resolve("blobs"))) {
            assertEquals(List.of("HXB3"), stored.map(Hxb2Files::format).toList(), "written whole");
        }
    }

    /** {@code json} sent on a connection of its own, its reply not awaited. */
    private static HttpConnection send(ExampleServer server, EngineClient client, String json) throws IOException {
        HttpConnection connection = HttpConnection.open(server.engineAddress().getPort());
        connection.send(HttpConnection.post(client.token(), json));
        return connection;
    }

    private static void awaitQueued(Scraper scraper, int calls) throws InterruptedException {
        Poll.until(
                () -> scraper.scrape().value("hexstream_ingest_queue_depth") >= calls,
                Duration.ofSeconds(WAIT_SECONDS),
                "the ingest queue filled");
    }
}
