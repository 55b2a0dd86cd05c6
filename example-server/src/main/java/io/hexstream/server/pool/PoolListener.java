package io.hexstream.server.pool;

import io.hexstream.server.blob.BlobEntry;

/**
 * Told by {@link DurableBlobPool} of each entry that enters or leaves the pool (the hex cache follows the pool this
 * way). Called on the thread that adds to the pool, under the pool's write lock (never an event loop: the ingest
 * threads, generation, start-up), so it may do a little work but must not block for long; calls come in the pool's own
 * order.
 */
public interface PoolListener {
    /** Tells nothing. */
    PoolListener NONE = new PoolListener() {};

    /** {@code entry} is now pooled (as the entry lookups return, the same instance). */
    default void entered(BlobEntry entry) {}

    /** {@code entry}, pooled until now, was evicted with the last item that held it. */
    default void left(BlobEntry entry) {}

    /**
     * {@code now} took the place of the pooled {@code old}: the same blob, commitment and proofs, with the extension
     * cells {@code old} lacked ({@link DurableBlobPool#completeExtensionCells}). By default {@code old} left and
     * {@code now} entered.
     */
    default void replaced(BlobEntry old, BlobEntry now) {
        left(old);
        entered(now);
    }
}
