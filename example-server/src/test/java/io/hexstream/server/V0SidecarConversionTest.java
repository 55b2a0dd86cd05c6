package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV1;
import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.EngineClient.dataReply;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.EngineClient;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.TestBlobs;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * v0 sidecars after Osaka: a blob transaction in the EIP-4844 form (blob proofs, no cell proofs) is converted at
 * {@code eth_sendRawTransaction} under osaka ({@code computeCellsAndKzgProofs}), so V2, V3 and V4 serve its blobs with
 * cell proofs that verify, and its blob proofs stay (V1 serves them under prague, over the same store).
 * {@code --convert-v0-sidecars=false} pools it as it came (V2 {@code null}); under prague nothing is converted. Every
 * entry holds its extension cells either way.
 */
class V0SidecarConversionTest {
    @TempDir
    Path data;

    private static List<VersionedHash> hashes(List<BlobEntry> entries) {
        return entries.stream().map(BlobEntry::versionedHash).toList();
    }

    private static void send(EngineServerFixture server, BlobTransactionBuilder tx) {
        assertEquals(dataReply(1, tx.hash()), server.sendRawTransaction(tx.build()));
    }

    /**
     * The served {@code BlobAndProofV2}'s (or all-cell {@code BlobCellsAndProofsV1}'s) 128 cell proofs, back to back.
     */
    private static byte[] cellProofs(JsonNode served) {
        byte[] proofs = new byte[BlobSizes.CELL_PROOFS_SIZE];
        for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
            System.arraycopy(
                    HexDecoder.decode(served.get("proofs").get(p).asText(), BlobSizes.PROOF_SIZE),
                    0,
                    proofs,
                    p * BlobSizes.PROOF_SIZE,
                    BlobSizes.PROOF_SIZE);
        }
        return proofs;
    }

    @Test
    void aSixBlobV0TransactionUnderOsakaIsServedByV2V3AndV4WithVerifiedCellProofsAndByV1WithItsBlobProofs() {
        List<BlobEntry> sent = TestBlobs.first(14).subList(8, 14);
        try (EngineServerFixture osaka = EngineServerFixture.startEmpty(Fork.OSAKA, data)) {
            send(osaka, BlobTransactionBuilder.withBlobProofs(sent).nonce(0));
            for (String version : List.of("V2", "V3")) {
                JsonNode served = osaka.getBlobs(version, hashes(sent));
                assertEquals(sent.size(), served.size(), version);
                for (int i = 0; i < sent.size(); i++) {
                    BlobEntry entry = sent.get(i);
                    assertBlobAndProofV2(entry, served.get(i)); // computeCellsAndKzgProofs, as generation made them
                    assertTrue(
                            Kzg.verifyCellProofs(entry.blob(), entry.commitment(), cellProofs(served.get(i))),
                            version + " blob " + i + ": the cell proofs verify");
                }
            }
            // V4 of every cell: cells 0-127 as computeCells gives them, each with its cell proof, which verify
            String params = EngineClient.hashParams(hashes(sent));
            JsonNode cells = osaka.call(EngineClient.request(
                            1,
                            "engine_getBlobsV4",
                            params.substring(0, params.length() - 1) + ",\"0x" + "ff".repeat(16) + "\"]"))
                    .get("result");
            for (int i = 0; i < sent.size(); i++) {
                BlobEntry entry = sent.get(i);
                ByteArrayOutputStream served = new ByteArrayOutputStream();
                cells.get(i).get("blob_cells").forEach(cell -> served.writeBytes(HexDecoder.decode(cell.asText())));
                ByteArrayOutputStream computed = new ByteArrayOutputStream();
                computed.writeBytes(entry.blob());
                computed.writeBytes(Kzg.extensionCells(entry.blob()));
                assertArrayEquals(computed.toByteArray(), served.toByteArray(), "V4 blob " + i + ": all 128 cells");
                assertTrue(
                        Kzg.verifyCellProofs(entry.blob(), entry.commitment(), cellProofs(cells.get(i))),
                        "V4 blob " + i + ": the cell proofs verify");
            }
            for (BlobEntry entry : sent) {
                BlobEntry pooled = osaka.server().pool().get(entry.versionedHash());
                assertArrayEquals(entry.blobProof(), pooled.blobProof(), "the blob proof is kept");
                assertArrayEquals(Kzg.extensionCells(entry.blob()), pooled.extensionCells());
            }
            BlobTransactionBuilder replacement =
                    BlobTransactionBuilder.withBlobProofs(sent.subList(0, 2)).nonce(3);
            send(osaka, replacement); // over pooled blobs: their cell proofs are reused
            assertBlobAndProofV2(
                    sent.get(1),
                    osaka.getBlobs("V3", List.of(sent.get(1).versionedHash())).get(0));
        }
        try (EngineServerFixture prague = EngineServerFixture.startEmpty(Fork.PRAGUE, data)) {
            JsonNode served = prague.getBlobs("V1", hashes(sent));
            assertEquals(sent.size(), served.size());
            for (int i = 0; i < sent.size(); i++) {
                assertBlobAndProofV1(sent.get(i), served.get(i));
            }
        }
    }

    @Test
    void withConvertV0SidecarsFalseAV0TransactionIsPooledAsItCameAndV2AnswersNull() {
        BlobEntry entry = TestBlobs.first(15).get(14);
        try (EngineServerFixture osaka =
                EngineServerFixture.startEmpty(Fork.OSAKA, data, "--convert-v0-sidecars=false")) {
            send(osaka, BlobTransactionBuilder.withBlobProofs(List.of(entry)).nonce(1));
            assertTrue(osaka.getBlobs("V2", List.of(entry.versionedHash())).isNull());
            assertEquals(
                    "[null]",
                    osaka.getBlobs("V3", List.of(entry.versionedHash())).toString());
            BlobEntry pooled = osaka.server().pool().get(entry.versionedHash());
            assertNull(pooled.cellProofs());
            assertArrayEquals(Kzg.extensionCells(entry.blob()), pooled.extensionCells());
        }
    }

    @Test
    void convertV0SidecarsIsOnByDefaultAndFalseTurnsItOff() {
        assertEquals(
                List.of(true, true, false, false),
                Stream.of(
                                new String[0],
                                new String[] {"--convert-v0-sidecars"},
                                new String[] {"--convert-v0-sidecars=false"},
                                new String[] {"--convert-v0-sidecars", "false"})
                        .map(args -> ServerOptions.parse(args).convertV0Sidecars)
                        .toList());
    }

    @Test
    void underPragueAV0TransactionIsNotConverted() {
        BlobEntry entry = TestBlobs.first(16).get(15);
        try (EngineServerFixture prague = EngineServerFixture.startEmpty(Fork.PRAGUE, data)) {
            send(prague, BlobTransactionBuilder.withBlobProofs(List.of(entry)).nonce(2));
            assertBlobAndProofV1(
                    entry, prague.getBlobs("V1", List.of(entry.versionedHash())).get(0));
            BlobEntry pooled = prague.server().pool().get(entry.versionedHash());
            assertNull(pooled.cellProofs(), "no cell proofs computed");
            assertArrayEquals(Kzg.extensionCells(entry.blob()), pooled.extensionCells());
        }
    }
}
