package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.dataReply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.Exposition;
import io.hexstream.server.testing.Scraper;
import io.hexstream.server.testing.TestBlobs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions accepted and refused by check, KZG verifications and store fsyncs, counted exactly: a transaction of two
 * blobs (its one file fsynced, then the directory), the same again (pooled already: nothing verified or written), one
 * with a bad signature (refused before KZG) and one whose cell proofs are another blob's (refused by KZG, after
 * verifying).
 */
class IngestionMetricsTest {
    @TempDir
    Path data;

    @Test
    void transactionsKzgAndFsyncsAreCountedByOutcome() {
        List<BlobEntry> blobs = TestBlobs.first(3);
        try (EngineServerFixture server = EngineServerFixture.startEmpty(Fork.OSAKA, data, "--metrics-port", "0")) {
            BlobTransactionBuilder good =
                    BlobTransactionBuilder.withCellProofs(blobs.subList(0, 2)).nonce(0);
            assertEquals(dataReply(1, good.hash()), server.sendRawTransaction(good.build()));
            assertEquals(dataReply(1, good.hash()), server.sendRawTransaction(good.build()));
            BlobTransactionBuilder forged =
                    BlobTransactionBuilder.withCellProofs(blobs.subList(2, 3)).nonce(1);
            assertTrue(server.sendRawTransaction(
                            forged.signature(forged.unrecoverableSignature()).build())
                    .contains("-32000"));
            BlobTransactionBuilder wrongProofs = BlobTransactionBuilder.withCellProofs(blobs.subList(2, 3))
                    .nonce(2)
                    .proofs(BlobTransactionBuilder.withCellProofs(blobs.subList(0, 1))
                            .proofs());
            assertTrue(server.sendRawTransaction(wrongProofs.build()).contains("-32000"));

            Exposition metrics = new Scraper(server.server().metricsAddress()).settled();
            assertEquals(2, metrics.value("hexstream_transactions_accepted_total"));
            assertEquals(
                    Map.of(
                            "hexstream_transactions_refused_total{check=\"signature\"}",
                            1.0,
                            "hexstream_transactions_refused_total{check=\"kzg_proofs\"}",
                            1.0),
                    metrics.families()
                            .get("hexstream_transactions_refused_total")
                            .samples());
            assertEquals(
                    2, metrics.value("hexstream_kzg_verification_seconds_count"), "the good one and the wrong proofs");
            assertEquals(
                    2,
                    metrics.value("hexstream_store_fsync_seconds_count"),
                    "the transaction's file, then its directory");
            assertEquals(2, metrics.value("hexstream_pool_blobs"));
            assertEquals(
                    4,
                    metrics.value("hexstream_rpc_requests_total{method=\"eth_sendRawTransaction\",outcome=\"ok\"}")
                            + metrics.value("hexstream_rpc_requests_total{method=\"eth_sendRawTransaction\""
                                    + ",outcome=\"-32000\"}"));
            assertEquals(0, metrics.value("hexstream_ingest_queue_depth"));
        }
    }
}
