package io.hexstream.server.testing;

import io.hexstream.client.BlobSizes;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;
import org.web3j.rlp.RlpEncoder;
import org.web3j.rlp.RlpList;
import org.web3j.rlp.RlpString;
import org.web3j.rlp.RlpType;

/**
 * Signed type-3 transactions in network form (EIP-4844: one blob proof per blob; EIP-7594: wrapper version 1 and 128
 * cell proofs per blob), built field by field so that a test can break exactly one thing: any sidecar list, the
 * versioned hashes (signed as given), the wrapper version or the signature. Chain id 1, a fixed key unless another is
 * given; the nonce tells transactions over the same blobs apart.
 */
public final class BlobTransactionBuilder {
    /** The sender's key, fixed so that signatures (RFC 6979) and hashes are the same on every run. */
    public static final ECKeyPair KEY =
            ECKeyPair.create(new BigInteger("4c0883a69102937d6231471b5dbb6204fe512961708279f3c9f1c3b5f5b7d1e1", 16));

    private static final byte[] TO = HexDecoder.decode("0x" + "b1".repeat(20));
    private static final long GWEI = 1_000_000_000L;

    /** A signature's fields as the body carries them. */
    public record Signature(BigInteger yParity, BigInteger r, BigInteger s) {}

    private final boolean cellProofs;
    private List<byte[]> blobs = new ArrayList<>();
    private List<byte[]> commitments = new ArrayList<>();
    private List<byte[]> proofs = new ArrayList<>();
    private List<byte[]> versionedHashes = new ArrayList<>();
    private long nonce;
    private int wrapperVersion = 1;
    private Signature signature;
    private ECKeyPair key = KEY;

    private BlobTransactionBuilder(List<BlobEntry> entries, boolean cellProofs) {
        this.cellProofs = cellProofs;
        for (BlobEntry entry : entries) {
            blobs.add(entry.blob());
            commitments.add(entry.commitment());
            versionedHashes.add(entry.versionedHash().toBytes());
            if (cellProofs) {
                for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
                    proofs.add(Arrays.copyOfRange(
                            entry.cellProofs(), p * BlobSizes.PROOF_SIZE, (p + 1) * BlobSizes.PROOF_SIZE));
                }
            } else {
                proofs.add(entry.blobProof());
            }
        }
    }

    /** The EIP-4844 network form over {@code entries}' blobs, commitments and blob proofs. */
    public static BlobTransactionBuilder withBlobProofs(List<BlobEntry> entries) {
        return new BlobTransactionBuilder(entries, false);
    }

    /** The EIP-7594 network form over {@code entries}' blobs, commitments and cell proofs. */
    public static BlobTransactionBuilder withCellProofs(List<BlobEntry> entries) {
        return new BlobTransactionBuilder(entries, true);
    }

    public BlobTransactionBuilder nonce(long nonce) {
        this.nonce = nonce;
        return this;
    }

    /** Signs with {@code key} instead of {@link #KEY}: another sender. */
    public BlobTransactionBuilder key(ECKeyPair key) {
        this.key = key;
        return this;
    }

    /** EIP-7594 form only. */
    public BlobTransactionBuilder wrapperVersion(int version) {
        this.wrapperVersion = version;
        return this;
    }

    public List<byte[]> blobs() {
        return new ArrayList<>(blobs);
    }

    public BlobTransactionBuilder blobs(List<byte[]> blobs) {
        this.blobs = new ArrayList<>(blobs);
        return this;
    }

    public List<byte[]> commitments() {
        return new ArrayList<>(commitments);
    }

    public BlobTransactionBuilder commitments(List<byte[]> commitments) {
        this.commitments = new ArrayList<>(commitments);
        return this;
    }

    /** Blob proofs, or cell proofs blob by blob (128 each), 48 bytes each. */
    public List<byte[]> proofs() {
        return new ArrayList<>(proofs);
    }

    public BlobTransactionBuilder proofs(List<byte[]> proofs) {
        this.proofs = new ArrayList<>(proofs);
        return this;
    }

    /** The body's {@code blob_versioned_hashes}, signed as given. */
    public BlobTransactionBuilder versionedHashes(List<byte[]> hashes) {
        this.versionedHashes = new ArrayList<>(hashes);
        return this;
    }

    /** Sends {@code signature} instead of the valid one. */
    public BlobTransactionBuilder signature(Signature signature) {
        this.signature = signature;
        return this;
    }

    /** The valid signature of the body as it is now. */
    public Signature validSignature() {
        return sign(3, unsignedBody(), key);
    }

    /**
     * The valid signature with one bit of {@code r} flipped, the lowest bit for which no sender can be recovered
     * (web3j). (Most other one-bit changes recover some other sender, a valid signature of someone else.)
     */
    public Signature unrecoverableSignature() {
        Signature valid = validSignature();
        byte[] signingHash = Hash.sha3(typed(3, new RlpList(unsignedBody())));
        for (int bit = 0; bit < 256; bit++) {
            BigInteger r = valid.r().flipBit(bit);
            BigInteger key;
            try {
                key = Sign.recoverFromSignature(
                        valid.yParity().intValue(), new ECDSASignature(r, valid.s()), signingHash);
            } catch (IllegalArgumentException e) { // r is not the x of a curve point
                key = null;
            }
            if (key == null) {
                return new Signature(valid.yParity(), r, valid.s());
            }
        }
        throw new AssertionError("every one-bit change of r recovers some sender");
    }

    /** {@code 0x03 ‖ rlp(network form)}. */
    public byte[] build() {
        List<RlpType> form = new ArrayList<>();
        form.add(new RlpList(body()));
        if (cellProofs) {
            form.add(RlpString.create(wrapperVersion));
        }
        form.add(strings(blobs));
        form.add(strings(commitments));
        form.add(strings(proofs));
        return typed(3, new RlpList(form));
    }

    /** The transaction hash, {@code keccak256(0x03 ‖ rlp(tx_payload_body))}. */
    public byte[] hash() {
        return Hash.sha3(typed(3, new RlpList(body())));
    }

    /** A signed EIP-1559 (type 2) transaction, which is not a blob transaction. */
    public static byte[] dynamicFeeTransaction(long nonce) {
        List<RlpType> fields = new ArrayList<>(List.of(
                RlpString.create(1),
                RlpString.create(nonce),
                RlpString.create(GWEI),
                RlpString.create(100 * GWEI),
                RlpString.create(21_000),
                RlpString.create(TO),
                RlpString.create(0),
                RlpString.create(new byte[0]),
                new RlpList()));
        return typed(2, new RlpList(withSignature(fields, sign(2, fields, KEY))));
    }

    private List<RlpType> unsignedBody() {
        return new ArrayList<>(List.of(
                RlpString.create(1),
                RlpString.create(nonce),
                RlpString.create(GWEI),
                RlpString.create(100 * GWEI),
                RlpString.create(21_000),
                RlpString.create(TO),
                RlpString.create(0),
                RlpString.create(new byte[0]),
                new RlpList(),
                RlpString.create(GWEI),
                strings(versionedHashes)));
    }

    private List<RlpType> body() {
        List<RlpType> unsigned = unsignedBody();
        return withSignature(unsigned, signature != null ? signature : sign(3, unsigned, key));
    }

    private static List<RlpType> withSignature(List<RlpType> unsigned, Signature signature) {
        List<RlpType> fields = new ArrayList<>(unsigned);
        fields.add(RlpString.create(signature.yParity()));
        fields.add(RlpString.create(signature.r()));
        fields.add(RlpString.create(signature.s()));
        return fields;
    }

    /** Signs {@code keccak256(type ‖ rlp(unsigned))} with {@code key}. */
    private static Signature sign(int type, List<RlpType> unsigned, ECKeyPair key) {
        Sign.SignatureData data = Sign.signMessage(Hash.sha3(typed(type, new RlpList(unsigned))), key, false);
        return new Signature(
                BigInteger.valueOf(data.getV()[0] - 27),
                new BigInteger(1, data.getR()),
                new BigInteger(1, data.getS()));
    }

    private static byte[] typed(int type, RlpList list) {
        byte[] encoded = RlpEncoder.encode(list);
        byte[] typed = new byte[encoded.length + 1];
        typed[0] = (byte) type;
        System.arraycopy(encoded, 0, typed, 1, encoded.length);
        return typed;
    }

    private static RlpList strings(List<byte[]> values) {
        List<RlpType> strings = new ArrayList<>(values.size());
        values.forEach(v -> strings.add(RlpString.create(v)));
        return new RlpList(strings);
    }
}
