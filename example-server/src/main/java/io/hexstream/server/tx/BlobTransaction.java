package io.hexstream.server.tx;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import java.math.BigInteger;
import java.util.List;

/**
 * A type-3 transaction decoded from its network form, sizes and counts checked, not yet verified (see
 * {@link BlobTransactionVerifier}).
 *
 * @param form which network form it came in, so which proofs its entries carry
 * @param hash 32 bytes, {@code keccak256(0x03 ‖ rlp(tx_payload_body))}: the transaction hash
 * @param signingHash 32 bytes, {@code keccak256(0x03 ‖ rlp(tx_payload_body without y_parity, r, s))}
 * @param versionedHashes the body's {@code blob_versioned_hashes}, in order
 * @param yParity the signature's {@code y_parity} as sent (not yet checked to be 0 or 1)
 * @param r the signature's {@code r}
 * @param s the signature's {@code s}
 * @param entries one per versioned hash, in order: blob, commitment, and the blob proof ({@link Form#EIP_4844}) or the
 *     128 cell proofs ({@link Form#EIP_7594})
 */
public record BlobTransaction(
        Form form,
        byte[] hash,
        byte[] signingHash,
        List<VersionedHash> versionedHashes,
        BigInteger yParity,
        BigInteger r,
        BigInteger s,
        List<BlobEntry> entries) {

    /** The two network forms of a type-3 transaction. */
    public enum Form {
        /** {@code rlp([tx_payload_body, blobs, commitments, proofs])}, one blob proof per blob. */
        EIP_4844,
        /**
         * {@code rlp([tx_payload_body, wrapper_version = 1, blobs, commitments, cell_proofs])}, 128 cell proofs per
         * blob.
         */
        EIP_7594
    }

    public BlobTransaction {
        versionedHashes = List.copyOf(versionedHashes);
        entries = List.copyOf(entries);
    }
}
