package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV1;
import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.codec.Hex;
import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.VersionedHash;
import io.hexstream.server.rpc.Fork;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.TestBlobs;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code eth_sendRawTransaction} of valid blob transactions in both network forms, with 1 and 6 blobs,
 * each served back by the getBlobs methods byte for byte: V1 (Prague) for blobs that came with a blob
 * proof, V2/V3 (Osaka) for blobs that came with cell proofs.
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

    private static String result(byte[] hash) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"" + Hex.encodeToString(hash, true) + "\"}";
    }

    private static List<VersionedHash> hashes(List<BlobEntry> entries) {
        return entries.stream().map(BlobEntry::versionedHash).toList();
    }

    /** Sends a transaction over {@code entries} and checks the answer is its hash. */
    private static void send(EngineClient server, BlobTransactionBuilder tx) {
        assertEquals(result(tx.hash()), server.sendRawTransaction(tx.build()));
    }

    @Test
    void blobProofTransactionsOfOneAndSixBlobsAreServedByGetBlobsV1() {
        List<BlobEntry> one = blobs.subList(0, 1);
        List<BlobEntry> six = blobs.subList(1, 7);
        send(prague, BlobTransactionBuilder.withBlobProofs(one).nonce(0));
        send(prague, BlobTransactionBuilder.withBlobProofs(six).nonce(1));

        JsonNode served = prague.getBlobs("V1", hashes(blobs.subList(0, 7)));
        assertEquals(7, served.size());
        for (int i = 0; i < 7; i++) {
            assertBlobAndProofV1(blobs.get(i), served.get(i));
        }
    }

    @Test
    void cellProofTransactionsOfOneAndSixBlobsAreServedByGetBlobsV2AndV3() {
        List<BlobEntry> one = blobs.subList(0, 1);
        List<BlobEntry> six = blobs.subList(1, 7);
        send(osaka, BlobTransactionBuilder.withCellProofs(one).nonce(0));
        send(osaka, BlobTransactionBuilder.withCellProofs(six).nonce(1));

        for (String version : List.of("V2", "V3")) {
            JsonNode served = osaka.getBlobs(version, hashes(blobs.subList(0, 7)));
            assertEquals(7, served.size());
            for (int i = 0; i < 7; i++) {
                assertBlobAndProofV2(blobs.get(i), served.get(i));
            }
        }
    }

    @Test
    void blobsAreServedOnlyByTheMethodsTheirProofsAnswer() {
        BlobEntry entry = blobs.get(7);
        send(osaka, BlobTransactionBuilder.withBlobProofs(List.of(entry)).nonce(2));
        send(prague, BlobTransactionBuilder.withCellProofs(List.of(entry)).nonce(2));

        assertTrue(osaka.getBlobs("V2", List.of(entry.versionedHash())).isNull());
        assertEquals("[null]", osaka.getBlobs("V3", List.of(entry.versionedHash())).toString());
        assertEquals("[null]", prague.getBlobs("V1", List.of(entry.versionedHash())).toString());
    }

    @Test
    void aPooledTransactionIsAnsweredWithItsHashAndNotStoredTwice() {
        BlobTransactionBuilder tx = BlobTransactionBuilder.withCellProofs(blobs.subList(0, 2)).nonce(3);
        send(osaka, tx);
        List<List<String>> pooled = osaka.poolState();
        send(osaka, tx);
        assertEquals(pooled, osaka.poolState());
    }

    @Test
    void theUnauthenticatedPortServesTheSameApiWithoutAToken() {
        EngineClient open = osaka.withoutJwt();
        BlobTransactionBuilder tx = BlobTransactionBuilder.withCellProofs(blobs.subList(6, 7)).nonce(4);
        send(open, tx);
        assertBlobAndProofV2(blobs.get(6), open.getBlobs("V3", List.of(blobs.get(6).versionedHash())).get(0));
        assertEquals(401, osaka.send(HttpRequest.newBuilder(osaka.uri()).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build()).statusCode(), "the Engine API port still wants a token");
    }

    @Test
    void theUnauthenticatedPortIsOffByDefault() {
        CommandLine commandLine = Main.commandLine();
        commandLine.parseArgs();
        assertNull(((Main) commandLine.getCommand()).rpcPort);
    }
}
