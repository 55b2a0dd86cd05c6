package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.dataReply;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import io.hexstream.server.testing.TestBlobs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Ingestion (decode, KZG, fsync) never stalls the getBlobs streams: while 6-blob transactions are sent back to back on
 * one connection (20 distinct ones in the EIP-7594 form, each verified in full; or 2 in the EIP-4844 form over 6 blobs
 * of their own, each converted: {@code computeCellsAndKzgProofs}, about 3 s a transaction), 8 other keep-alive
 * connections asking {@code engine_getBlobsV2} of one blob every 20 ms see a p99 of at most 50 ms, each time counted
 * from when the request was due (so a reader stalled behind a transaction counts every request it could not send, not
 * just the one it waited for). Prints p50 and p99.
 */
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
    private static final long P99_LIMIT_MS = 50;
    /** Each reader asks every 20 ms. */
    private static final long PERIOD_NANOS = 20_000_000;
    /** {@code {"jsonrpc":"2.0","id":1,"result":[} (34), one BlobAndProofV2 (275,096), {@code ]}} (2). */
    private static final int ONE_BLOB_REPLY = 34 + 275_096 + 2;

    @TempDir
    Path data;

    @ParameterizedTest
    @EnumSource(Sidecars.class)
    void getBlobsStaysFastWhileSixBlobTransactionsAreIngested(Sidecars sidecars) throws Exception {
        EngineServerFixture.copySharedPool(data);
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, data);
                HttpConnection ingesting = HttpConnection.open(server.port())) {
            String getBlobs =
                    request(1, "engine_getBlobsV2", hashParams(server.hashes().subList(0, 1)));
            ByteArrayOutputStream transactions = new ByteArrayOutputStream();
            List<String> expected = new ArrayList<>();
            for (int nonce = 0; nonce < sidecars.transactions; nonce++) {
                BlobTransactionBuilder tx =
                        sidecars.form.apply(sidecars.blobs(nonce)).nonce(nonce);
                transactions.writeBytes(HttpConnection.post(
                        server.token(),
                        request(1, "eth_sendRawTransaction", "[\"" + Hex.encodeToString(tx.build(), true) + "\"]")));
                expected.add(dataReply(1, tx.hash()));
            }
            List<HttpConnection> readers = new ArrayList<>();
            ExecutorService threads = Executors.newFixedThreadPool(READERS + 1);
            AtomicBoolean ingested = new AtomicBoolean();
            try {
                for (int r = 0; r < READERS; r++) {
                    HttpConnection reader = HttpConnection.open(server.port());
                    readers.add(reader);
                    exchange(reader, HttpConnection.post(server.token(), getBlobs)); // connected and warm
                }
                List<Future<Latencies>> measured = new ArrayList<>();
                for (HttpConnection reader : readers) {
                    byte[] ask = HttpConnection.post(server.token(), getBlobs);
                    measured.add(threads.submit(() -> {
                        Latencies latencies = new Latencies();
                        long due = System.nanoTime();
                        do { // on a schedule, timed from when each request was due: a stall counts in full
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                            }
                            exchange(reader, ask);
                            latencies.add(System.nanoTime() - due);
                            due += PERIOD_NANOS;
                        } while (!ingested.get());
                        return latencies;
                    }));
                }
                long started = System.nanoTime();
                ingesting.send(transactions.toByteArray());
                List<String> replies = new ArrayList<>();
                for (int i = 0; i < sidecars.transactions; i++) {
                    HttpConnection.Head head = ingesting.readHead();
                    assertEquals(200, head.status());
                    replies.add(new String(ingesting.readBody(head), US_ASCII));
                }
                long ingestMillis = (System.nanoTime() - started) / 1_000_000;
                ingested.set(true);
                assertEquals(expected, replies);
                Latencies all = new Latencies();
                for (Future<Latencies> latencies : measured) {
                    all.addAll(latencies.get());
                }
                double p50 = all.median() / 1e6;
                double p99 = all.percentile(99) / 1e6;
                System.out.printf(
                        "ingestion latency: %d transactions of 6 blobs (%s) in %d ms; %d getBlobsV2 of 1 blob"
                                + " on %d connections meanwhile: p50 %.1f ms, p99 %.1f ms%n",
                        sidecars.transactions, sidecars.what, ingestMillis, all.count(), READERS, p50, p99);
                assertTrue(p99 <= P99_LIMIT_MS, "p99 " + p99 + " ms");
            } finally {
                ingested.set(true);
                threads.shutdownNow();
                for (HttpConnection reader : readers) {
                    reader.close();
                }
            }
        }
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
