package io.hexstream.server.tx;

import static io.hexstream.server.tx.TransactionRefusedException.failed;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.ServerMetrics;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;

/**
 * The checks of a decoded {@link BlobTransaction} that need cryptography, cheapest first: versioned hashes (EIP-4844:
 * {@code 0x01 ‖ sha256(commitment)[1..32]}, in order), signature (secp256k1 recovery by web3j, {@code s} at most
 * secp256k1n/2 as EIP-2 requires), KZG ({@code verifyBlobKzgProofBatch} for the EIP-4844 form,
 * {@code verifyCellKzgProofBatch} for EIP-7594, whose computed cells it keeps: the entries of a verified EIP-7594
 * transaction carry their extension cells). Stateless.
 *
 * <p>A signature is refused when no sender can be recovered from it. A signature altered so that it still recovers some
 * other sender cannot be told from a real one (ECDSA has no way to): it is the signature of that other sender.
 */
public final class BlobTransactionVerifier {
    private static final BigInteger N = Sign.CURVE_PARAMS.getN();
    private static final BigInteger HALF_N = N.shiftRight(1);

    private BlobTransactionVerifier() {}

    /**
     * A transaction that passed every check.
     *
     * @param sender {@code 0x}-hex, 20 bytes
     * @param entries the transaction's entries in order; in the EIP-7594 form each with its extension cells (cells 64
     *     to 127, those {@code verifyCellKzgProofBatch} was given), in the EIP-4844 form as decoded
     */
    public record Verified(String sender, List<BlobEntry> entries) {
        public Verified {
            entries = List.copyOf(entries);
        }
    }

    /**
     * Verifies {@code tx}; returns its sender and its entries (with their extension cells in the EIP-7594 form).
     *
     * @throws TransactionRefusedException failed check {@code versioned hashes}, {@code signature} or {@code KZG
     *     proofs}
     */
    public static Verified verify(BlobTransaction tx, ServerMetrics metrics) throws TransactionRefusedException {
        for (int i = 0; i < tx.entries().size(); i++) {
            VersionedHash computed = tx.entries().get(i).versionedHash();
            if (!computed.equals(tx.versionedHashes().get(i))) {
                throw failed(
                        "versioned hashes",
                        "commitment " + i + " hashes to " + computed + ", the transaction lists "
                                + tx.versionedHashes().get(i));
            }
        }
        String sender = sender(tx);
        long started = System.nanoTime();
        List<BlobEntry> entries = tx.entries();
        boolean valid;
        if (tx.form() == BlobTransaction.Form.EIP_4844) {
            valid = Kzg.verifyBlobProofs(
                    concat(tx, BlobEntry::blob),
                    concat(tx, BlobEntry::commitment),
                    concat(tx, BlobEntry::blobProof),
                    entries.size());
        } else {
            List<byte[]> extensionCells = Kzg.verifiedExtensionCells(
                    concat(tx, BlobEntry::blob), concat(tx, BlobEntry::commitment), concat(tx, BlobEntry::cellProofs));
            valid = extensionCells != null;
            if (valid) {
                entries = new ArrayList<>(entries.size());
                for (int i = 0; i < extensionCells.size(); i++) {
                    entries.add(tx.entries().get(i).withExtensionCells(extensionCells.get(i)));
                }
            }
        }
        metrics.kzgVerified(System.nanoTime() - started);
        if (!valid) {
            throw failed(
                    "KZG proofs",
                    tx.form() == BlobTransaction.Form.EIP_4844
                            ? "verifyBlobKzgProofBatch refused the blob proofs"
                            : "verifyCellKzgProofBatch refused the cell proofs");
        }
        return new Verified(sender, entries);
    }

    private static String sender(BlobTransaction tx) throws TransactionRefusedException {
        if (tx.yParity().compareTo(BigInteger.ONE) > 0) {
            throw failed("signature", "y_parity is " + tx.yParity() + ", expected 0 or 1");
        }
        if (tx.r().signum() == 0 || tx.r().compareTo(N) >= 0) {
            throw failed("signature", "r is outside [1, secp256k1n)");
        }
        if (tx.s().signum() == 0 || tx.s().compareTo(HALF_N) > 0) {
            throw failed("signature", "s is outside [1, secp256k1n/2] (EIP-2)");
        }
        BigInteger publicKey;
        try {
            publicKey = Sign.recoverFromSignature(
                    tx.yParity().intValue(), new ECDSASignature(tx.r(), tx.s()), tx.signingHash());
        } catch (IllegalArgumentException | ArithmeticException e) { // r is not the x of a curve point
            publicKey = null;
        }
        if (publicKey == null) {
            throw failed("signature", "no sender can be recovered from it");
        }
        return "0x" + Keys.getAddress(publicKey);
    }

    /** One part of every entry, back to back. */
    private static byte[] concat(BlobTransaction tx, Function<BlobEntry, byte[]> part) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (BlobEntry entry : tx.entries()) {
            out.writeBytes(part.apply(entry));
        }
        return out.toByteArray();
    }
}
