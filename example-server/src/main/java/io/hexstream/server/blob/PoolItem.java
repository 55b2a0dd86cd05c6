package io.hexstream.server.blob;

import io.hexstream.codec.Hex;
import java.util.List;

/**
 * What the pool adds and evicts as one, and what one store file holds: a generated blob, or a blob transaction
 * (EIP-4844 type 3) with its blobs. A blob that several items hold (a replacement transaction carries the blobs of the
 * one it replaces) stays pooled while any of them is.
 *
 * @param transactionHash 32 bytes, {@code keccak256(0x03 ‖ rlp(tx_payload_body))}, or {@code null} for a generated blob
 * @param entries the blobs, in the transaction's order; exactly one for a generated blob
 */
public record PoolItem(byte[] transactionHash, List<BlobEntry> entries) {
    public PoolItem {
        entries = List.copyOf(entries);
        if (transactionHash == null && entries.size() != 1) {
            throw new IllegalArgumentException("a generated item is one blob, got " + entries.size());
        }
        if (transactionHash != null && transactionHash.length != BlobSizes.TRANSACTION_HASH_SIZE) {
            throw new IllegalArgumentException("a transaction hash is 32 bytes, got " + transactionHash.length);
        }
    }

    public static PoolItem generated(BlobEntry entry) {
        return new PoolItem(null, List.of(entry));
    }

    public static PoolItem transaction(byte[] transactionHash, List<BlobEntry> entries) {
        return new PoolItem(transactionHash, entries);
    }

    public boolean isTransaction() {
        return transactionHash != null;
    }

    /** The item's name, {@code 0x}-hex: its transaction hash, or the versioned hash of its blob. */
    public String key() {
        return isTransaction()
                ? keyOf(transactionHash)
                : entries.get(0).versionedHash().toString();
    }

    /** The key of the transaction with {@code transactionHash}. */
    public static String keyOf(byte[] transactionHash) {
        return Hex.encodeToString(transactionHash, true);
    }
}
