package io.hexstream.server.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.TestBlobs;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.web3j.crypto.Keys;

/**
 * Decoding and verifying, without a server: the hash, the sender, the proofs each form's entries carry, and (EIP-7594)
 * the extension cells the verification computed.
 */
class BlobTransactionVerifierTest {
    private static final String SENDER = "0x" + Keys.getAddress(BlobTransactionBuilder.KEY.getPublicKey());

    @ParameterizedTest
    @EnumSource(BlobTransaction.Form.class)
    void aTransactionDecodesToItsHashSenderAndProofs(BlobTransaction.Form form) throws Exception {
        List<BlobEntry> blobs = TestBlobs.first(2);
        boolean cells = form == BlobTransaction.Form.EIP_7594;
        BlobTransactionBuilder built = (cells
                        ? BlobTransactionBuilder.withCellProofs(blobs)
                        : BlobTransactionBuilder.withBlobProofs(blobs))
                .nonce(7);
        BlobTransaction tx = BlobTransactionDecoder.decode(built.build());
        assertEquals(form, tx.form());
        assertArrayEquals(built.hash(), tx.hash());
        BlobTransactionVerifier.Verified verified = BlobTransactionVerifier.verify(tx, ServerMetrics.NONE);
        assertEquals(SENDER, verified.sender());
        for (int i = 0; i < blobs.size(); i++) {
            assertArrayEquals(
                    cells ? Kzg.extensionCells(blobs.get(i).blob()) : null,
                    verified.entries().get(i).extensionCells(),
                    "the cells the cell-proof check computed, kept");
            assertArrayEquals(blobs.get(i).commitment(), tx.entries().get(i).commitment());
            assertArrayEquals(
                    cells ? null : blobs.get(i).blobProof(), tx.entries().get(i).blobProof());
            assertArrayEquals(
                    cells ? blobs.get(i).cellProofs() : null,
                    tx.entries().get(i).cellProofs());
        }
    }
}
