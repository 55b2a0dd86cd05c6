package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.dataReply;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import io.hexstream.server.testing.RecordingIngestWork;
import io.hexstream.server.testing.RecordingStoreFiles;
import io.hexstream.server.testing.TestBlobs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ingestion (decode, KZG, fsync) never runs on an I/O thread, so it cannot stall the getBlobs streams: while 6-blob
 * transactions are sent back to back on one connection (20 distinct ones in the EIP-7594 form over the same 6 blobs,
 * each verified in full; or 2 in the EIP-4844 form over 6 blobs of their own, each converted:
 * {@code computeCellsAndKzgProofs}, about 3 s a transaction), 8 other keep-alive connections ask
 * {@code engine_getBlobsV2} of one blob every 20 ms. Asserted: every reply exact, each step (decode, KZG verification
 * and conversion, write, fsync, rename, directory fsync) run the expected number of times, each on an ingest thread as
 * the step itself saw it (through {@link Seams}), never on an I/O thread, and the pool's blob count. Printed, not
 * asserted (a loaded machine's own noise is larger than what is measured): the readers' latencies, each counted from
 * when the request was due, beside those of the same readers over the same server for {@value #BASELINE_MILLIS} ms
 * before, with no ingestion.
 */
@Tag("full") // the load: -Pfull
class IngestionLatencyTest {
    /** The transactions sent: their network form, how many, and what ingesting them costs. */
    enum Sidecars {
        /** The same 6 blobs each time: verified each time. */
        CELL_PROOFS(20, false, "EIP-7594, cell proofs verified", BlobTransactionBuilder::withCellProofs),
        /** 6 blobs of their own each (a blob pooled with cell proofs already is not converted again). */
        V0_CONVERTED(2, true, "EIP-4844, cell proofs computed", BlobTransactionBuilder::withBlobProofs);

        final int transactions;
        final boolean distinctBlobs;
        final String what;
        final Function<List<BlobEntry>, BlobTransactionBuilder> form;

        Sidecars(
                int transactions,
                boolean distinctBlobs,
                String what,
                Function<List<BlobEntry>, BlobTransactionBuilder> form) {
            this.transactions = transactions;
            this.distinctBlobs = distinctBlobs;
            this.what = what;
            this.form = form;
        }

        /** The 6 blobs of transaction {@code n}. */
        List<BlobEntry> blobs(int n) {
            return distinctBlobs ? TestBlobs.first(6 * (n + 1)).subList(6 * n, 6 * (n + 1)) : TestBlobs.first(6);
        }
    }

    private static final int READERS = 8;
    /** How long the readers are measured with no ingestion, first. */
    private static final long BASELINE_MILLIS = 3_000;
    /** Each reader asks every 20 ms. */
    private static final long PERIOD_NANOS = 20_000_000;
    /** {@code {"jsonrpc":"2.0","id":1,"result":[} (34), one BlobAndProofV2 (275,096), {@code ]}} (2). */
    private static final int ONE_BLOB_REPLY = 34 + 275_096 + 2;

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Sidecars.class)
    void noDecodeKzgOrFsyncRunsOnAnIoThreadWhileSixBlobTransactionsAreIngested(Sidecars sidecars) throws Exception {
        EngineServerFixture.copySharedPool(data);
        RecordingStoreFiles files = new RecordingStoreFiles();
        RecordingIngestWork work = new RecordingIngestWork();
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, data, new Seams(files, work));
                HttpConnection ingesting = HttpConnection.open(server.port())) {
            String getBlobs =
                    request(1, "engine_getBlobsV2", hashParams(server.hashes().subList(0, 1)));
            ByteArrayOutputStream transactions = new ByteArrayOutputStream();
            List<String> expected = new ArrayList<>();
            Set<VersionedHash> sent = new HashSet<>();
            for (int nonce = 0; nonce < sidecars.transactions; nonce++) {
                BlobTransactionBuilder tx =
                        sidecars.form.apply(sidecars.blobs(nonce)).nonce(nonce);
                transactions.writeBytes(HttpConnection.post(
                        server.token(),
                        request(1, "eth_sendRawTransaction", "[\"" + Hex.encodeToString(tx.build(), true) + "\"]")));
                expected.add(dataReply(1, tx.hash()));
                sidecars.blobs(nonce).forEach(blob -> sent.add(blob.versionedHash()));
            }
            List<HttpConnection> readers = new ArrayList<>();
            ExecutorService threads = Executors.newFixedThreadPool(READERS + 1);
            AtomicBoolean stop = new AtomicBoolean();
            try {
                for (int r = 0; r < READERS; r++) {
                    HttpConnection reader = HttpConnection.open(server.port());
                    readers.add(reader);
                    exchange(reader, HttpConnection.post(server.token(), getBlobs)); // connected and warm
                }
                byte[] ask = HttpConnection.post(server.token(), getBlobs);
                List<Future<Latencies>> idle = read(readers, ask, threads, stop);
                Thread.sleep(BASELINE_MILLIS); // the readers' baseline: their calls with no ingestion, for this long
                stop.set(true);
                Latencies baseline = all(idle);
                stop.set(false);
                List<Future<Latencies>> measured = read(readers, ask, threads, stop);
                long started = System.nanoTime();
                ingesting.send(transactions.toByteArray());
                List<String> replies = new ArrayList<>();
                for (int i = 0; i < sidecars.transactions; i++) {
                    HttpConnection.Head head = ingesting.readHead();
                    assertEquals(200, head.status());
                    replies.add(new String(ingesting.readBody(head), US_ASCII));
                }
                long ingestMillis = (System.nanoTime() - started) / 1_000_000;
                stop.set(true);
                assertEquals(expected, replies);
                Latencies during = all(measured);
                Measurements.report(
                        "ingestion latency: %d transactions of 6 blobs (%s) in %d ms; getBlobsV2 of 1 blob on"
                                + " %d connections: while ingesting %d calls, p50 %.1f ms, p99 %.1f ms; no ingestion"
                                + " (the %d ms"
                                + " before) %d calls, p50 %.1f ms, p99 %.1f ms%n",
                        sidecars.transactions,
                        sidecars.what,
                        ingestMillis,
                        READERS,
                        during.count(),
                        during.median() / 1e6,
                        during.percentile(99) / 1e6,
                        BASELINE_MILLIS,
                        baseline.count(),
                        baseline.median() / 1e6,
                        baseline.percentile(99) / 1e6);
            } finally {
                stop.set(true);
                threads.shutdownNow();
                for (HttpConnection reader : readers) {
                    reader.close();
                }
            }
            int n = sidecars.transactions;
            assertEquals(n, work.count(RecordingIngestWork.Step.DECODE));
            assertEquals(n, work.count(RecordingIngestWork.Step.VERIFY));
            assertEquals(
                    sidecars.distinctBlobs ? 6L * n : 0,
                    work.count(RecordingIngestWork.Step.CELL_PROOFS),
                    "each v0 blob converted once");
            assertEquals(
                    0, work.count(RecordingIngestWork.Step.EXTENSION_CELLS), "cells from verification or conversion");
            for (RecordingStoreFiles.Op op : List.of(
                    RecordingStoreFiles.Op.WRITE,
                    RecordingStoreFiles.Op.FORCE,
                    RecordingStoreFiles.Op.RENAME,
                    RecordingStoreFiles.Op.FORCE_DIRECTORY)) {
                assertEquals(
                        n,
                        files.calls().stream().filter(call -> call.op() == op).count(),
                        op + ": a file a transaction");
            }
            List<String> threadsSeen = new ArrayList<>();
            work.calls().forEach(call -> threadsSeen.add(call.step() + " on " + call.thread()));
            files.calls().forEach(call -> threadsSeen.add(call.op() + " on " + call.thread()));
            for (String step : threadsSeen) {
                assertFalse(step.contains(" on " + EngineServer.IO_THREADS), step);
                assertTrue(step.contains(" on hexstream-ingest"), step);
            }
            assertEquals(
                    EngineServerFixture.GENERATED + sent.size(), server.hashes().size(), "each blob pooled once");
        }
    }

    /** Each reader asking {@code ask} on a schedule until {@code stop}, timed from when each request was due. */
    private static List<Future<Latencies>> read(
            List<HttpConnection> readers, byte[] ask, ExecutorService threads, AtomicBoolean stop) {
        List<Future<Latencies>> measured = new ArrayList<>();
        for (HttpConnection reader : readers) {
            measured.add(threads.submit(() -> {
                Latencies latencies = new Latencies();
                long due = System.nanoTime();
                do { // a stall counts in full: every request it kept from being sent
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000)); // a paced reader: its next call
                    }
                    exchange(reader, ask);
                    latencies.add(System.nanoTime() - due);
                    due += PERIOD_NANOS;
                } while (!stop.get());
                return latencies;
            }));
        }
        return measured;
    }

    private static Latencies all(List<Future<Latencies>> measured) throws Exception {
        Latencies all = new Latencies();
        for (Future<Latencies> latencies : measured) {
            all.addAll(latencies.get());
        }
        return all;
    }

    /** One request and its whole reply, read into a reused buffer (no garbage of the test's own to collect). */
    private static void exchange(HttpConnection connection, byte[] request) throws Exception {
        connection.send(request);
        HttpConnection.Head head = connection.readHead();
        assertEquals(200, head.status());
        assertEquals(ONE_BLOB_REPLY, head.contentLength());
        assertEquals(ONE_BLOB_REPLY, connection.discard(head.contentLength()));
    }
}
