package io.hexstream.server.tx;

import static io.hexstream.server.tx.TransactionRefusedException.failed;
import static io.hexstream.server.tx.TransactionRefusedException.undecodable;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.web3j.crypto.Hash;
import org.web3j.rlp.RlpDecoder;
import org.web3j.rlp.RlpEncoder;
import org.web3j.rlp.RlpList;
import org.web3j.rlp.RlpString;
import org.web3j.rlp.RlpType;

/**
 * Decodes a type-3 transaction in network form (EIP-2718 envelope, RLP by web3j) and checks its shape: type, wrapper
 * version, counts and sizes. Stateless.
 *
 * <ul>
 *   <li>EIP-4844: {@code 0x03 ‖ rlp([tx_payload_body, blobs, commitments, proofs])}, one proof per blob;
 *   <li>EIP-7594: {@code 0x03 ‖ rlp([tx_payload_body, wrapper_version = 1, blobs, commitments, cell_proofs])}, 128 cell
 *       proofs per blob, blob by blob;
 * </ul>
 *
 * where {@code tx_payload_body} is {@code [chain_id, nonce, max_priority_fee_per_gas, max_fee_per_gas, gas_limit, to,
 * value, data, access_list, max_fee_per_blob_gas, blob_versioned_hashes, y_parity, r, s]}. Blobs are 131,072 bytes,
 * commitments and proofs 48, versioned hashes 32, {@code to} 20.
 */
public final class BlobTransactionDecoder {
    /** The EIP-2718 type of blob transactions. */
    public static final int BLOB_TX_TYPE = 0x03;
    /** The {@code wrapper_version} of the EIP-7594 network form. */
    public static final int CELL_PROOFS_WRAPPER_VERSION = 1;

    private static final int BODY_FIELDS = 14;
    private static final int SIGNED_FIELDS = 11;
    private static final String[] FIELD_NAMES = {
        "chain_id",
        "nonce",
        "max_priority_fee_per_gas",
        "max_fee_per_gas",
        "gas_limit",
        "to",
        "value",
        "data",
        "access_list",
        "max_fee_per_blob_gas",
        "blob_versioned_hashes",
        "y_parity",
        "r",
        "s"
    };
    private static final int TO = 5;
    private static final int DATA = 7;
    private static final int ACCESS_LIST = 8;
    private static final int VERSIONED_HASHES = 10;
    private static final int Y_PARITY = 11;
    private static final int ADDRESS_SIZE = 20;

    private BlobTransactionDecoder() {}

    /**
     * Decodes {@code raw}.
     *
     * @throws TransactionRefusedException undecodable for bytes that are not one canonical RLP list of the network
     *     form's shape; failed check {@code type}, {@code network form}, {@code wrapper version}, {@code counts},
     *     {@code sizes} or {@code to} otherwise
     */
    public static BlobTransaction decode(byte[] raw) throws TransactionRefusedException {
        if (raw.length == 0) {
            throw undecodable("empty input");
        }
        int type = raw[0] & 0xff;
        if (type >= 0xc0) {
            throw failed("type", "only blob transactions (type 3) are accepted, got a legacy transaction");
        }
        if (type >= 0x80) {
            throw undecodable(String.format("first byte 0x%02x is neither a transaction type nor an RLP list", type));
        }
        if (type != BLOB_TX_TYPE) {
            throw failed("type", "only blob transactions (type 3) are accepted, got type " + type);
        }
        List<RlpType> form = outerList(Arrays.copyOfRange(raw, 1, raw.length));
        BlobTransaction.Form kind = networkForm(form);
        int sidecar = kind == BlobTransaction.Form.EIP_4844 ? 1 : 2;
        List<RlpType> body = body(form.get(0));
        List<byte[]> hashes = strings(body.get(VERSIONED_HASHES), FIELD_NAMES[VERSIONED_HASHES]);
        List<byte[]> blobs = strings(form.get(sidecar), "blobs");
        List<byte[]> commitments = strings(form.get(sidecar + 1), "commitments");
        List<byte[]> proofs =
                strings(form.get(sidecar + 2), kind == BlobTransaction.Form.EIP_4844 ? "proofs" : "cell_proofs");

        int proofsPerBlob = kind == BlobTransaction.Form.EIP_4844 ? 1 : BlobSizes.CELLS_PER_EXT_BLOB;
        int n = hashes.size();
        if (n == 0) {
            throw failed("counts", "a blob transaction carries at least one blob");
        }
        if (blobs.size() != n || commitments.size() != n || proofs.size() != n * proofsPerBlob) {
            throw failed(
                    "counts",
                    String.format(
                            "%d versioned hashes, %d blobs, %d commitments, %d %s; expected %s",
                            n,
                            blobs.size(),
                            commitments.size(),
                            proofs.size(),
                            proofsPerBlob == 1 ? "proofs" : "cell proofs",
                            proofsPerBlob == 1
                                    ? "one blob, commitment and proof per versioned hash"
                                    : "one blob and commitment and 128 cell proofs per versioned hash"));
        }
        byte[] to = string(body.get(TO), "to");
        if (to.length != ADDRESS_SIZE) {
            throw failed(
                    "to", to.length + " bytes, expected a 20-byte address (a blob transaction creates no contract)");
        }
        checkSizes("versioned hash", hashes, BlobSizes.VERSIONED_HASH_SIZE);
        checkSizes("blob", blobs, BlobSizes.BLOB_SIZE);
        checkSizes("commitment", commitments, BlobSizes.COMMITMENT_SIZE);
        checkSizes(proofsPerBlob == 1 ? "proof" : "cell proof", proofs, BlobSizes.PROOF_SIZE);

        List<VersionedHash> versionedHashes = new ArrayList<>(n);
        for (byte[] versionedHash : hashes) {
            versionedHashes.add(VersionedHash.wrap(versionedHash));
        }
        byte[] hash = typedHash(new RlpList(body));
        byte[] signingHash = typedHash(new RlpList(body.subList(0, SIGNED_FIELDS)));
        return new BlobTransaction(
                kind,
                hash,
                signingHash,
                versionedHashes,
                integer(body.get(Y_PARITY), "y_parity"),
                integer(body.get(Y_PARITY + 1), "r"),
                integer(body.get(Y_PARITY + 2), "s"),
                entries(blobs, commitments, proofs, proofsPerBlob));
    }

    /** Which network form {@code form} is: 4 items (EIP-4844), or 5 with wrapper version 1 (EIP-7594). */
    private static BlobTransaction.Form networkForm(List<RlpType> form) throws TransactionRefusedException {
        if (form.size() == 4) {
            return BlobTransaction.Form.EIP_4844;
        }
        if (form.size() == 5) {
            BigInteger version = integer(form.get(1), "wrapper_version");
            if (!version.equals(BigInteger.valueOf(CELL_PROOFS_WRAPPER_VERSION))) {
                throw failed("wrapper version", version + ", expected " + CELL_PROOFS_WRAPPER_VERSION + " (EIP-7594)");
            }
            return BlobTransaction.Form.EIP_7594;
        }
        if (form.size() == BODY_FIELDS) {
            throw failed("network form", "got a blob transaction without its blobs, commitments and proofs");
        }
        throw undecodable("the network form is a list of 4 items (EIP-4844) or 5 (EIP-7594), got " + form.size());
    }

    /** {@code tx_payload_body}'s fields, each checked to be of its RLP kind (list, string or integer). */
    private static List<RlpType> body(RlpType item) throws TransactionRefusedException {
        List<RlpType> body = list(item, "tx_payload_body");
        if (body.size() != BODY_FIELDS) {
            throw undecodable("tx_payload_body has " + body.size() + " fields, expected " + BODY_FIELDS);
        }
        for (int i = 0; i < BODY_FIELDS; i++) {
            if (i == ACCESS_LIST) {
                list(body.get(i), FIELD_NAMES[i]);
            } else if (i == VERSIONED_HASHES) {
                strings(body.get(i), FIELD_NAMES[i]);
            } else if (i == TO || i == DATA) {
                string(body.get(i), FIELD_NAMES[i]);
            } else {
                integer(body.get(i), FIELD_NAMES[i]);
            }
        }
        return body;
    }

    /** One pooled entry per blob: its blob proof (EIP-4844), or its cell proofs back to back (EIP-7594). */
    private static List<BlobEntry> entries(
            List<byte[]> blobs, List<byte[]> commitments, List<byte[]> proofs, int proofsPerBlob) {
        List<BlobEntry> entries = new ArrayList<>(blobs.size());
        for (int i = 0; i < blobs.size(); i++) {
            if (proofsPerBlob == 1) {
                entries.add(new BlobEntry(blobs.get(i), commitments.get(i), proofs.get(i), null));
            } else {
                byte[] cellProofs = new byte[BlobSizes.CELL_PROOFS_SIZE];
                for (int p = 0; p < proofsPerBlob; p++) {
                    System.arraycopy(
                            proofs.get(i * proofsPerBlob + p),
                            0,
                            cellProofs,
                            p * BlobSizes.PROOF_SIZE,
                            BlobSizes.PROOF_SIZE);
                }
                entries.add(new BlobEntry(blobs.get(i), commitments.get(i), null, cellProofs));
            }
        }
        return entries;
    }

    /** {@code keccak256(0x03 ‖ rlp(list))}. */
    private static byte[] typedHash(RlpList list) {
        byte[] encoded = RlpEncoder.encode(list);
        byte[] typed = new byte[encoded.length + 1];
        typed[0] = BLOB_TX_TYPE;
        System.arraycopy(encoded, 0, typed, 1, encoded.length);
        return Hash.sha3(typed);
    }

    /** The one RLP list that {@code payload} must be, canonically encoded, as its items. */
    private static List<RlpType> outerList(byte[] payload) throws TransactionRefusedException {
        try {
            RlpStructure.check(payload);
            RlpList top;
            try {
                top = RlpDecoder.decode(payload);
            } catch (RuntimeException e) { // web3j: "RLP wrong encoding", or an index out of bounds
                throw undecodable("malformed or truncated encoding");
            }
            if (top.getValues().size() != 1 || !(top.getValues().get(0) instanceof RlpList outer)) {
                throw undecodable("expected one list after the type byte, got "
                        + top.getValues().size() + " items");
            }
            if (!Arrays.equals(RlpEncoder.encode(outer), payload)) {
                throw undecodable("not the canonical encoding");
            }
            return outer.getValues();
        } catch (StackOverflowError e) { // web3j decodes and encodes nested lists by recursion
            throw undecodable("lists nested too deeply");
        }
    }

    private static List<RlpType> list(RlpType item, String name) throws TransactionRefusedException {
        if (item instanceof RlpList list) {
            return list.getValues();
        }
        throw undecodable(name + " must be a list");
    }

    private static byte[] string(RlpType item, String name) throws TransactionRefusedException {
        if (item instanceof RlpString string) {
            return string.getBytes();
        }
        throw undecodable(name + " must be a byte string");
    }

    private static List<byte[]> strings(RlpType item, String name) throws TransactionRefusedException {
        List<RlpType> items = list(item, name);
        List<byte[]> strings = new ArrayList<>(items.size());
        for (RlpType element : items) {
            if (!(element instanceof RlpString string)) {
                throw undecodable(name + " must be a list of byte strings");
            }
            strings.add(string.getBytes());
        }
        return strings;
    }

    /** A uint256: at most 32 bytes, big-endian, no leading zero byte. */
    private static BigInteger integer(RlpType item, String name) throws TransactionRefusedException {
        byte[] bytes = string(item, name);
        if (bytes.length > 32 || (bytes.length > 0 && bytes[0] == 0)) {
            throw undecodable(name + " is not a canonical integer (at most 32 bytes, no leading zero)");
        }
        return new BigInteger(1, bytes);
    }

    private static void checkSizes(String what, List<byte[]> items, int size) throws TransactionRefusedException {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).length != size) {
                throw failed("sizes", what + " " + i + " is " + items.get(i).length + " bytes, expected " + size);
            }
        }
    }
}
