package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV1;
import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.dataReply;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import ethereum.ckzg4844.CKZG4844JNI;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.TestBlobs;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code eth_sendRawTransaction} of valid blob transactions in both network forms, with 1 and 6 blobs, each served back
 * by the getBlobs methods byte for byte: V1 (Prague) for blobs that came with a blob proof, V2/V3 (Osaka) for blobs
 * that came with cell proofs; pooled with the extension cells the cell-proof check computed.
 */
class IngestionTest {
    @TempDir
    static Path pragueData;

    @TempDir
    static Path osakaData;

    private static EngineServerFixture prague;
    private static EngineServerFixture osaka;
    private static List<BlobEntry> blobs;

    @BeforeAll
    static void start() {
        blobs = TestBlobs.first(8);
        prague = EngineServerFixture.startEmpty(Fork.PRAGUE, pragueData);
        osaka = EngineServerFixture.startEmpty(Fork.OSAKA, osakaData);
    }

    @AfterAll
    static void stop() {
        prague.close();
        osaka.close();
    }

    private static List<VersionedHash> hashes(List<BlobEntry> entries) {
        return entries.stream().map(BlobEntry::versionedHash).toList();
    }

    /** Sends a transaction over {@code entries} and checks the answer is its hash. */
    private static void send(EngineClient server, BlobTransactionBuilder tx) {
        assertEquals(dataReply(1, tx.hash()), server.sendRawTransaction(tx.build()));
    }

    /** Sends a transaction of one blob and one of six; returns the seven blobs sent. */
    private static List<BlobEntry> sendOneAndSix(
            EngineClient server, Function<List<BlobEntry>, BlobTransactionBuilder> form) {
        send(server, form.apply(blobs.subList(0, 1)).nonce(0));
        send(server, form.apply(blobs.subList(1, 7)).nonce(1));
        return blobs.subList(0, 7);
    }

    @Test
    void blobProofTransactionsOfOneAndSixBlobsAreServedByGetBlobsV1() {
        List<BlobEntry> sent = sendOneAndSix(prague, BlobTransactionBuilder::withBlobProofs);
        JsonNode served = prague.getBlobs("V1", hashes(sent));
        assertEquals(sent.size(), served.size());
        for (int i = 0; i < sent.size(); i++) {
            assertBlobAndProofV1(sent.get(i), served.get(i));
        }
    }

    @Test
    void cellProofTransactionsOfOneAndSixBlobsAreServedByGetBlobsV2AndV3() {
        List<BlobEntry> sent = sendOneAndSix(osaka, BlobTransactionBuilder::withCellProofs);
        for (String version : List.of("V2", "V3")) {
            JsonNode served = osaka.getBlobs(version, hashes(sent));
            assertEquals(sent.size(), served.size());
            for (int i = 0; i < sent.size(); i++) {
                assertBlobAndProofV2(sent.get(i), served.get(i));
            }
        }
    }

    @Test
    void anIngestedCellProofTransactionsEntriesHoldTheExtensionCellsOfComputeCells() {
        send(osaka, BlobTransactionBuilder.withCellProofs(blobs.subList(0, 2)).nonce(5));
        for (BlobEntry entry : blobs.subList(0, 2)) {
            byte[] all = CKZG4844JNI.computeCells(entry.blob());
            assertArrayEquals(
                    Arrays.copyOfRange(all, BlobSizes.BLOB_SIZE, all.length),
                    osaka.server().pool().get(entry.versionedHash()).extensionCells());
        }
    }

    /** (A blob-proof transaction under osaka is converted and served by V2/V3: {@code V0SidecarConversionTest}.) */
    @Test
    void blobsThatCameWithCellProofsOnlyAreNotServedByGetBlobsV1() {
        BlobEntry entry = blobs.get(7);
        send(prague, BlobTransactionBuilder.withCellProofs(List.of(entry)).nonce(2));
        assertEquals(
                "[null]", prague.getBlobs("V1", List.of(entry.versionedHash())).toString());
    }

    @Test
    void aPooledTransactionIsAnsweredWithItsHashAndNotStoredTwice() {
        BlobTransactionBuilder tx =
                BlobTransactionBuilder.withCellProofs(blobs.subList(0, 2)).nonce(3);
        send(osaka, tx);
        List<List<String>> pooled = osaka.poolState();
        send(osaka, tx);
        assertEquals(pooled, osaka.poolState());
    }

    @Test
    void theUnauthenticatedPortTakesTransactionsWithoutAToken() {
        EngineClient open = osaka.withoutJwt();
        BlobTransactionBuilder tx =
                BlobTransactionBuilder.withCellProofs(blobs.subList(6, 7)).nonce(4);
        send(open, tx);
        assertBlobAndProofV2(
                blobs.get(6),
                osaka.getBlobs("V3", List.of(blobs.get(6).versionedHash())).get(0));
        assertEquals(
                401,
                osaka.send(HttpRequest.newBuilder(osaka.uri())
                                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                .build())
                        .statusCode(),
                "the Engine API port still wants a token");
    }

    @Test
    void theUnauthenticatedPortIsOffByDefault() {
        assertNull(ServerOptions.parse().rpcPort);
    }
}
