package io.hexstream.server.tx;

import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.BlobPool;
import io.hexstream.server.pool.PoolItem;
import io.hexstream.server.store.BlobStore;
import java.io.IOException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a raw blob transaction into the durable pool: decode, verify, then, one transaction at a time,
 * write its blobs not pooled yet to the store (fsynced) and only then add them to the pool. A refused
 * or unwritable transaction changes nothing; a transaction already pooled is answered with its hash
 * and not stored again. Thread-safe.
 *
 * <p>Called on an I/O thread: KZG verification (about 30 ms a blob) and the fsync run there too.
 */
public final class TransactionIngest {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionIngest.class);

    private final BlobPool pool;
    private final BlobStore store;
    private final Object commit = new Object();

    public TransactionIngest(BlobPool pool, BlobStore store) {
        this.pool = pool;
        this.store = store;
    }

    /**
     * Accepts {@code raw} (a type-3 transaction in either network form); returns its 32-byte hash once
     * it is on disk and in the pool.
     *
     * @throws TransactionRefusedException if it does not decode or fails a check; nothing was stored
     * @throws IOException if it could not be written; nothing was added to the pool
     */
    public byte[] accept(byte[] raw) throws TransactionRefusedException, IOException {
        BlobTransaction tx = BlobTransactionDecoder.decode(raw);
        String sender = BlobTransactionVerifier.verify(tx);
        String key = PoolItem.keyOf(tx.hash());
        synchronized (commit) {
            if (pool.containsTransaction(tx.hash())) {
                LOG.debug("transaction {} is already pooled", key);
                return tx.hash();
            }
            List<BlobEntry> fresh = pool.notPooled(tx.entries());
            if (fresh.size() > pool.capacity()) {
                throw TransactionRefusedException.failed("pool capacity",
                        fresh.size() + " new blobs, the pool holds at most " + pool.capacity());
            }
            PoolItem item = PoolItem.transaction(tx.hash(), fresh);
            store.save(item);
            pool.add(item);
            LOG.info("pooled transaction {} from {}: {} blobs with {} ({} new to the pool)", key, sender,
                    tx.entries().size(), tx.form() == BlobTransaction.Form.EIP_4844 ? "blob proofs" : "cell proofs",
                    fresh.size());
        }
        return tx.hash();
    }
}
