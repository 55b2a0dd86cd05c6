package io.hexstream.server.tx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.TestBlobs;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Keys;

/** Decoding and verifying, without a server: the hash, the sender, and what each form's entries carry. */
class BlobTransactionVerifierTest {
    private static final String SENDER = "0x" + Keys.getAddress(BlobTransactionBuilder.KEY.getPublicKey());

    @Test
    void theEip4844FormDecodesToItsHashSenderAndBlobProofs() throws Exception {
        List<BlobEntry> blobs = TestBlobs.first(2);
        BlobTransactionBuilder built = BlobTransactionBuilder.withBlobProofs(blobs).nonce(7);
        BlobTransaction tx = BlobTransactionDecoder.decode(built.build());
        assertEquals(BlobTransaction.Form.EIP_4844, tx.form());
        assertArrayEquals(built.hash(), tx.hash());
        assertEquals(SENDER, BlobTransactionVerifier.verify(tx));
        assertArrayEquals(blobs.get(1).blobProof(), tx.entries().get(1).blobProof());
        assertNull(tx.entries().get(1).cellProofs());
    }

    @Test
    void theEip7594FormDecodesToItsHashSenderAndCellProofs() throws Exception {
        List<BlobEntry> blobs = TestBlobs.first(2);
        BlobTransactionBuilder built = BlobTransactionBuilder.withCellProofs(blobs).nonce(7);
        BlobTransaction tx = BlobTransactionDecoder.decode(built.build());
        assertEquals(BlobTransaction.Form.EIP_7594, tx.form());
        assertArrayEquals(built.hash(), tx.hash());
        assertEquals(SENDER, BlobTransactionVerifier.verify(tx));
        assertArrayEquals(blobs.get(1).cellProofs(), tx.entries().get(1).cellProofs());
        assertNull(tx.entries().get(1).blobProof());
    }
}
