package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.dataReply;
import static io.hexstream.server.testing.EngineClient.errorReply;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.BlobSizes;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.BlobTransactionBuilder;
import io.hexstream.server.testing.BlobTransactionBuilder.Signature;
import io.hexstream.server.testing.CapturedLog;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.RecordingIngestWork;
import io.hexstream.server.testing.RecordingStoreFiles;
import io.hexstream.server.testing.TestBlobs;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal of {@code eth_sendRawTransaction}, with its exact error, leaves the pool exactly as it was, in memory
 * and on disk: {@code -32602} for input that does not decode, {@code -32000} naming the failed check otherwise, or
 * saying that the transaction could not be stored durably. The pool holds one transaction (two once the one refused for
 * its disk is sent again).
 */
class RefusalsTest {
    @TempDir
    static Path data;

    private static EngineServerFixture server;
    private static List<BlobEntry> blobs;
    private static final RecordingStoreFiles files = new RecordingStoreFiles();
    private static final RecordingIngestWork work = new RecordingIngestWork();

    @BeforeAll
    static void start() {
        blobs = TestBlobs.first(2);
        server = EngineServerFixture.startEmpty(Fork.OSAKA, data, new Seams(files, work));
        BlobTransactionBuilder pooled =
                BlobTransactionBuilder.withCellProofs(blobs.subList(1, 2)).nonce(100);
        assertEquals(dataReply(1, pooled.hash()), server.sendRawTransaction(pooled.build()));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static BlobTransactionBuilder blobProofs() {
        return BlobTransactionBuilder.withBlobProofs(blobs.subList(0, 1));
    }

    private static BlobTransactionBuilder cellProofs() {
        return BlobTransactionBuilder.withCellProofs(blobs.subList(0, 1));
    }

    /** Sends {@code raw}; the reply must be exactly this error, and the pool unchanged. */
    private static void assertRefused(byte[] raw, int code, String message) {
        List<List<String>> before = server.poolState();
        assertEquals(errorReply(1, code, message), server.sendRawTransaction(raw));
        assertEquals(before, server.poolState());
    }

    private static byte[] flipBit(byte[] bytes, int bit) {
        byte[] flipped = bytes.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        return flipped;
    }

    /** {@code 0x03}, then {@code depth} lists each holding the next (4-byte headers), then an empty list. */
    private static byte[] deeplyNested(int depth) {
        ByteBuffer nested = ByteBuffer.allocate(1 + depth * 4 + 1).put((byte) 0x03);
        for (int level = 0; level < depth; level++) {
            int contentLength = (depth - level - 1) * 4 + 1;
            nested.put((byte) 0xfa)
                    .put((byte) (contentLength >> 16))
                    .put((byte) (contentLength >> 8))
                    .put((byte) contentLength);
        }
        return nested.put((byte) 0xc0).array();
    }

    @Test
    void truncatedRlp() {
        byte[] valid = blobProofs().build();
        assertRefused(
                Arrays.copyOf(valid, valid.length - 1), -32602, "Invalid params: RLP: malformed or truncated encoding");
        assertRefused(Arrays.copyOf(valid, 1000), -32602, "Invalid params: RLP: malformed or truncated encoding");
        assertRefused(new byte[0], -32602, "Invalid params: RLP: empty input");
    }

    @Test
    void wrongWrapperVersion() {
        assertRefused(
                cellProofs().wrapperVersion(2).build(),
                -32000,
                "Server error: wrapper version: 2, expected 1 (EIP-7594)");
        assertRefused(
                cellProofs().wrapperVersion(0).build(),
                -32000,
                "Server error: wrapper version: 0, expected 1 (EIP-7594)");
    }

    @Test
    void corruptedSignature() {
        BlobTransactionBuilder tx = blobProofs();
        Signature valid = tx.validSignature();
        assertRefused(
                tx.signature(tx.unrecoverableSignature()).build(),
                -32000,
                "Server error: signature: no sender can be recovered from it");
        assertRefused(
                tx.signature(new Signature(BigInteger.TWO, valid.r(), valid.s()))
                        .build(),
                -32000,
                "Server error: signature: y_parity is 2, expected 0 or 1");
        BigInteger n = new BigInteger("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16);
        Signature highS = new Signature(BigInteger.ONE.subtract(valid.yParity()), valid.r(), n.subtract(valid.s()));
        assertRefused(
                tx.signature(highS).build(), -32000, "Server error: signature: s is outside [1, secp256k1n/2] (EIP-2)");
        assertRefused(
                tx.signature(new Signature(valid.yParity(), BigInteger.ZERO, valid.s()))
                        .build(),
                -32000,
                "Server error: signature: r is outside [1, secp256k1n)");
    }

    @Test
    void countMismatch() {
        BlobTransactionBuilder two = BlobTransactionBuilder.withBlobProofs(blobs);
        List<byte[]> oneProof = two.proofs().subList(0, 1);
        assertRefused(
                two.proofs(oneProof).build(),
                -32000,
                "Server error: counts: 2 versioned hashes, 2 blobs, 2 commitments,"
                        + " 1 proofs; expected one blob, commitment and proof per versioned hash");
        BlobTransactionBuilder cells = cellProofs();
        assertRefused(
                cells.proofs(cells.proofs().subList(0, 127)).build(),
                -32000,
                "Server error: counts: 1 versioned hashes,"
                        + " 1 blobs, 1 commitments, 127 cell proofs; expected one blob and commitment and 128 cell"
                        + " proofs per versioned hash");
        assertRefused(
                blobProofs().blobs(List.of()).build(),
                -32000,
                "Server error: counts: 1 versioned hashes, 0 blobs,"
                        + " 1 commitments, 1 proofs; expected one blob, commitment and proof per versioned hash");
    }

    @Test
    void blobOfOneByteLess() {
        byte[] short131071 = Arrays.copyOf(blobs.get(0).blob(), BlobSizes.BLOB_SIZE - 1);
        assertRefused(
                blobProofs().blobs(List.of(short131071)).build(),
                -32000,
                "Server error: sizes: blob 0 is 131071 bytes, expected 131072");
        assertRefused(
                cellProofs().blobs(List.of(short131071)).build(),
                -32000,
                "Server error: sizes: blob 0 is 131071 bytes, expected 131072");
    }

    @Test
    void proofWithOneBitFlipped() {
        BlobTransactionBuilder tx = blobProofs();
        assertRefused(
                tx.proofs(List.of(flipBit(tx.proofs().get(0), 200))).build(),
                -32000,
                "Server error: KZG proofs: verifyBlobKzgProofBatch refused the blob proofs");
        BlobTransactionBuilder cells = cellProofs();
        List<byte[]> cellProofs = cells.proofs();
        cellProofs.set(77, flipBit(cellProofs.get(77), 200));
        assertRefused(
                cells.proofs(cellProofs).build(),
                -32000,
                "Server error: KZG proofs: verifyCellKzgProofBatch refused the cell proofs");
    }

    @Test
    void versionedHashMismatch() {
        byte[] other = blobs.get(1).versionedHash().toBytes();
        assertRefused(
                blobProofs().versionedHashes(List.of(other)).build(),
                -32000,
                "Server error: versioned hashes:" + " commitment 0 hashes to "
                        + blobs.get(0).versionedHash() + ", the transaction lists "
                        + blobs.get(1).versionedHash());
    }

    @Test
    void moreThanSixBlobsAreRefusedBeforeAnyKzgWork() {
        long verified = work.count(RecordingIngestWork.Step.VERIFY);
        assertRefused(
                BlobTransactionBuilder.withCellProofs(TestBlobs.first(7)).build(),
                -32000,
                "Server error: counts: 7 blobs, at most 6 per transaction (MAX_BLOBS_PER_TX)");
        assertEquals(verified, work.count(RecordingIngestWork.Step.VERIFY), "no KZG verification");
    }

    @Test
    void aTransactionWhoseDirectoryFsyncFailsIsRefusedNotAcknowledged() {
        BlobTransactionBuilder tx = cellProofs().nonce(7);
        List<List<String>> before = server.poolState();
        files.take();
        files.failing(RecordingStoreFiles.Op.FORCE_DIRECTORY);
        String reply;
        try (CapturedLog log = CapturedLog.start()) { // the injected failure's log, stack trace and all
            reply = server.sendRawTransaction(tx.build());
            assertTrue(log.text().contains("injected FORCE_DIRECTORY failure"), log.text());
        } finally {
            files.failing(null);
        }
        RecordingStoreFiles.Call renamed = files.calls().stream()
                .filter(call -> call.op() == RecordingStoreFiles.Op.RENAME)
                .findFirst()
                .orElseThrow();
        assertEquals(
                errorReply(
                        1,
                        -32000,
                        "Server error: transaction not stored durably, not pooled: fsync of the"
                                + " directory " + data.resolve("blobs") + " failed, so " + renamed.to()
                                + " might not survive a crash:"
                                + " injected FORCE_DIRECTORY failure"),
                reply);
        assertEquals(before, server.poolState(), "not pooled, its file removed");
        assertEquals(dataReply(1, tx.hash()), server.sendRawTransaction(tx.build()), "taken once the disk works");
        assertEquals(before.get(0).size() + 1, server.poolState().get(0).size());
    }

    @Test
    void nonBlobTransactionTypes() {
        assertRefused(
                BlobTransactionBuilder.dynamicFeeTransaction(0),
                -32000,
                "Server error: type: only blob transactions (type 3) are accepted, got type 2");
        byte[] legacy = Arrays.copyOfRange(BlobTransactionBuilder.dynamicFeeTransaction(0), 1, 50);
        assertRefused(
                legacy,
                -32000,
                "Server error: type: only blob transactions (type 3) are accepted, got a legacy transaction");
    }

    @Test
    void inputThatIsNotATransaction() {
        String reply = new String(
                server.post(EngineServerFixture.request(1, "eth_sendRawTransaction", "[\"0x03zz\"]"))
                        .body(),
                StandardCharsets.UTF_8);
        assertEquals(errorReply(1, -32602, "Invalid params: transaction: invalid hex character 'z' at index 4"), reply);
        byte[] twoLists = {0x03, (byte) 0xc0, (byte) 0xc0};
        assertRefused(twoLists, -32602, "Invalid params: RLP: expected one list after the type byte, got 2 items");
        byte[] nonCanonical = {0x03, (byte) 0xc2, (byte) 0x81, 0x05};
        assertRefused(nonCanonical, -32602, "Invalid params: RLP: not the canonical encoding");
        assertRefused(deeplyNested(100_000), -32602, "Invalid params: RLP: lists nested too deeply");
        byte[] threeItems = {0x03, (byte) 0xc3, (byte) 0xc0, (byte) 0xc0, (byte) 0xc0};
        assertRefused(
                threeItems,
                -32602,
                "Invalid params: RLP: the network form is a list of 4 items (EIP-4844) or 5 (EIP-7594), got 3");
    }
}
