package io.hexstream.server.blob;

import io.hexstream.client.BlobSizes;
import io.hexstream.codec.Hex;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What the pool adds and evicts as one, and what one store file holds: a generated blob, or a blob transaction
 * (EIP-4844 type 3) with its blobs. A blob that several items hold (a replacement transaction carries the blobs of the
 * one it replaces) stays pooled while any of them is.
 *
 * @param transactionHash 32 bytes, {@code keccak256(0x03 ‖ rlp(tx_payload_body))}, or {@code null} for a generated blob
 * @param entries the blobs, in the transaction's order; exactly one for a generated blob
 * @param origin {@link Origin#AUTHENTICATED} for a generated blob
 * @param sender the transaction's sender, {@code 0x}-hex of 20 bytes in lower case, kept for the items of an
 *     {@link Origin#UNAUTHENTICATED unauthenticated} origin only (the per-sender limit counts those); {@code null} for
 *     the others
 */
public record PoolItem(byte[] transactionHash, List<BlobEntry> entries, Origin origin, String sender) {
    /** {@code 0x} and 40 lower-case hex digits. */
    private static final int SENDER_LENGTH = 2 + 2 * 20;

    public PoolItem {
        entries = List.copyOf(entries);
        Objects.requireNonNull(origin, "origin");
        if (origin == Origin.UNAUTHENTICATED
                ? transactionHash == null
                        || sender == null
                        || sender.length() != SENDER_LENGTH
                        || !sender.startsWith("0x")
                        || !sender.equals(sender.toLowerCase(Locale.ROOT))
                : sender != null) {
            throw new IllegalArgumentException(
                    "a sender is kept with, and only with, an unauthenticated transaction: " + origin + ", " + sender);
        }
        if (transactionHash == null && entries.size() != 1) {
            throw new IllegalArgumentException("a generated item is one blob, got " + entries.size());
        }
        if (transactionHash != null && transactionHash.length != BlobSizes.TRANSACTION_HASH_SIZE) {
            throw new IllegalArgumentException("a transaction hash is 32 bytes, got " + transactionHash.length);
        }
    }

    public static PoolItem generated(BlobEntry entry) {
        return new PoolItem(null, List.of(entry), Origin.AUTHENTICATED, null);
    }

    /** A transaction that came through the Engine API port. */
    public static PoolItem transaction(byte[] transactionHash, List<BlobEntry> entries) {
        return new PoolItem(transactionHash, entries, Origin.AUTHENTICATED, null);
    }

    /**
     * A transaction from {@code sender} ({@code 0x}-hex, 20 bytes, lower case) that came through a port without JWT.
     */
    public static PoolItem unauthenticated(byte[] transactionHash, List<BlobEntry> entries, String sender) {
        return new PoolItem(transactionHash, entries, Origin.UNAUTHENTICATED, sender);
    }

    /** This item holding {@code held} instead of its entries (the same blobs, e.g. the pool's shared instances). */
    public PoolItem holding(List<BlobEntry> held) {
        return new PoolItem(transactionHash, held, origin, sender);
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
