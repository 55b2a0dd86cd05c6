package io.hexstream.server.tx;

import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a raw blob transaction into the durable pool, cheapest checks first: decode (type, network
 * form, counts, sizes), already pooled by its hash (answered at once, nothing redone), at most
 * {@code maxBlobsPerTransaction} blobs (EIP-7594 {@code MAX_BLOBS_PER_TX}) and no more than the pool
 * holds; then versioned hashes, signature and KZG proofs ({@link BlobTransactionVerifier}, about 30 ms
 * a blob); then the blobs not pooled yet are written (fsynced) and only then added. A refused or
 * unwritable transaction changes nothing. Thread-safe.
 *
 * <p>It blocks (KZG, disk): call it on the ingest executor, never on an event loop.
 */
public final class TransactionIngest {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionIngest.class);

    private final DurableBlobPool pool;
    private final int maxBlobsPerTransaction;
    private final ServerMetrics metrics;

    /**
     * @param maxBlobsPerTransaction the most blobs a transaction may carry ({@code --max-blobs-per-tx}), at least 1
     * @param metrics told each transaction accepted, or refused and by which check, and each KZG verification's time
     */
    public TransactionIngest(DurableBlobPool pool, int maxBlobsPerTransaction, ServerMetrics metrics) {
        if (maxBlobsPerTransaction < 1) {
            throw new IllegalArgumentException("max blobs per transaction " + maxBlobsPerTransaction + " < 1");
        }
        this.pool = pool;
        this.maxBlobsPerTransaction = maxBlobsPerTransaction;
        this.metrics = metrics;
    }

    /**
     * Accepts {@code raw} (a type-3 transaction in either network form); returns its 32-byte hash once
     * it is on disk and in the pool.
     *
     * @throws TransactionRefusedException if it does not decode or fails a check; nothing was stored
     * @throws IOException if it could not be written; nothing was added to the pool
     */
    public byte[] accept(byte[] raw) throws TransactionRefusedException, IOException {
        try {
            byte[] hash = checkAndAdd(raw);
            metrics.transactionAccepted();
            return hash;
        } catch (TransactionRefusedException e) {
            metrics.transactionRefused(e.check());
            throw e;
        }
    }

    private byte[] checkAndAdd(byte[] raw) throws TransactionRefusedException, IOException {
        BlobTransaction tx = BlobTransactionDecoder.decode(raw);
        String key = PoolItem.keyOf(tx.hash());
        if (pool.containsTransaction(tx.hash())) {
            LOG.debug("transaction {} is already pooled", key);
            return tx.hash();
        }
        int blobs = tx.entries().size();
        if (blobs > maxBlobsPerTransaction) {
            throw TransactionRefusedException.failed("counts",
                    blobs + " blobs, at most " + maxBlobsPerTransaction + " per transaction (MAX_BLOBS_PER_TX)");
        }
        if (blobs > pool.capacity()) {
            throw TransactionRefusedException.failed("pool capacity",
                    blobs + " blobs, the pool holds at most " + pool.capacity());
        }
        String sender = BlobTransactionVerifier.verify(tx, metrics);
        int fresh = pool.addTransaction(tx.hash(), tx.entries());
        if (fresh < 0) {
            LOG.debug("transaction {} was pooled meanwhile", key);
        } else {
            LOG.info("pooled transaction {} from {}: {} blobs with {} ({} new to the pool)", key, sender, blobs,
                    tx.form() == BlobTransaction.Form.EIP_4844 ? "blob proofs" : "cell proofs", fresh);
        }
        return tx.hash();
    }
}
