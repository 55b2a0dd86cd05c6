package io.hexstream.server.tx;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.pool.PoolRefusedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a raw blob transaction into the durable pool, cheapest checks first: decode (type, network form, counts,
 * sizes), already pooled by its hash (answered at once, nothing redone), at most {@code maxBlobsPerTransaction} blobs
 * (EIP-7594 {@code MAX_BLOBS_PER_TX}) and no more than the pool holds (through a port without JWT, no more than its
 * share of the pool); then versioned hashes, signature and KZG proofs ({@link BlobTransactionVerifier}, about 30 ms a
 * blob); then, through a port without JWT, the pool's limits on such transactions (per sender, and its share:
 * {@link DurableBlobPool#checkAdmission}), before any costly conversion; then every entry is given its extension cells
 * (cells 64 to 127): in the EIP-7594 form those the cell-proof verification computed, in the EIP-4844 form
 * {@code computeCells} (a few milliseconds a blob), or, when converting v0 sidecars (Osaka on,
 * {@code --convert-v0-sidecars}), {@code computeCellsAndKzgProofs} (about half a second a blob; a blob pooled with its
 * cell proofs already is not computed again), which also gives the 128 cell proofs that V2 and V3 serve while the blob
 * proof stays for V1; then the transaction is written with its blobs (fsynced) and only then added, sharing the blobs
 * pooled already. A refused or unwritable transaction changes nothing. Thread-safe.
 *
 * <p>It blocks (KZG, disk): call it on the ingest executor, never on an event loop.
 */
public final class TransactionIngest {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionIngest.class);

    private final DurableBlobPool pool;
    private final int maxBlobsPerTransaction;
    private final boolean convertV0Sidecars;
    private final ServerMetrics metrics;
    private final IngestWork work;

    /** As the constructor with an {@link IngestWork}, the steps {@link IngestWork#STANDARD}. */
    public TransactionIngest(
            DurableBlobPool pool, int maxBlobsPerTransaction, boolean convertV0Sidecars, ServerMetrics metrics) {
        this(pool, maxBlobsPerTransaction, convertV0Sidecars, metrics, IngestWork.STANDARD);
    }

    /**
     * @param maxBlobsPerTransaction the most blobs a transaction may carry ({@code --max-blobs-per-tx}), at least 1
     * @param convertV0Sidecars whether an EIP-4844 transaction's blobs get cell proofs computed (Osaka or later with
     *     {@code --convert-v0-sidecars}); if not, they are pooled with their blob proofs only
     * @param metrics told each transaction accepted, or refused and by which check, and each KZG verification's time
     * @param work runs the decoding and the KZG steps
     */
    public TransactionIngest(
            DurableBlobPool pool,
            int maxBlobsPerTransaction,
            boolean convertV0Sidecars,
            ServerMetrics metrics,
            IngestWork work) {
        if (maxBlobsPerTransaction < 1) {
            throw new IllegalArgumentException("max blobs per transaction " + maxBlobsPerTransaction + " < 1");
        }
        this.pool = pool;
        this.maxBlobsPerTransaction = maxBlobsPerTransaction;
        this.convertV0Sidecars = convertV0Sidecars;
        this.metrics = metrics;
        this.work = work;
    }

    /**
     * Accepts {@code raw} (a type-3 transaction in either network form) that came through a port of {@code origin};
     * returns its 32-byte hash once it is on disk and in the pool.
     *
     * @throws TransactionRefusedException if it does not decode or fails a check (for the unauthenticated origin, the
     *     pool's limits too: {@link PoolRefusedException#SENDER_LIMIT}, {@link PoolRefusedException#POOL_SHARE});
     *     nothing was stored
     * @throws IOException if it could not be written; nothing was added to the pool
     */
    public byte[] accept(byte[] raw, Origin origin) throws TransactionRefusedException, IOException {
        try {
            byte[] hash = checkAndAdd(raw, origin);
            metrics.transactionAccepted();
            return hash;
        } catch (TransactionRefusedException e) {
            metrics.transactionRefused(e.check());
            throw e;
        }
    }

    private byte[] checkAndAdd(byte[] raw, Origin origin) throws TransactionRefusedException, IOException {
        BlobTransaction tx = work.decode(raw);
        String key = PoolItem.keyOf(tx.hash());
        if (pool.containsTransaction(tx.hash())) {
            LOG.debug("transaction {} is already pooled", key);
            return tx.hash();
        }
        int blobs = tx.entries().size();
        if (blobs > maxBlobsPerTransaction) {
            throw TransactionRefusedException.failed(
                    "counts",
                    blobs + " blobs, at most " + maxBlobsPerTransaction + " per transaction (MAX_BLOBS_PER_TX)");
        }
        if (blobs > pool.capacity()) {
            throw TransactionRefusedException.failed(
                    "pool capacity", blobs + " blobs, the pool holds at most " + pool.capacity());
        }
        int fresh;
        BlobTransactionVerifier.Verified verified;
        try {
            if (origin == Origin.UNAUTHENTICATED) {
                pool.checkShare(blobs);
            }
            verified = work.verify(tx, metrics);
            pool.checkAdmission(item(tx, verified.entries(), origin, verified.sender())); // before converting
            fresh = pool.addTransaction(
                    item(tx, withExtensionCells(tx.form(), verified.entries()), origin, verified.sender()));
        } catch (PoolRefusedException e) {
            throw TransactionRefusedException.failed(e.check(), e.detail());
        }
        if (fresh < 0) {
            LOG.debug("transaction {} was pooled meanwhile", key);
        } else {
            LOG.info(
                    "pooled transaction {} from {}{}: {} blobs with {} ({} new to the pool)",
                    key,
                    verified.sender(),
                    origin == Origin.UNAUTHENTICATED ? " through a port without JWT" : "",
                    blobs,
                    tx.form() == BlobTransaction.Form.EIP_7594
                            ? "cell proofs"
                            : convertV0Sidecars ? "blob proofs, converted to cell proofs" : "blob proofs",
                    fresh);
        }
        return tx.hash();
    }

    /** The pool item of {@code tx} holding {@code entries}, as it came through a port of {@code origin}. */
    private static PoolItem item(BlobTransaction tx, List<BlobEntry> entries, Origin origin, String sender) {
        return origin == Origin.UNAUTHENTICATED
                ? PoolItem.unauthenticated(tx.hash(), entries, sender)
                : PoolItem.transaction(tx.hash(), entries);
    }

    /**
     * The verified {@code entries}, each with its extension cells: as the verification left them (EIP-7594), or
     * computed here (EIP-4844: converted to cell proofs too when {@link #convertV0Sidecars}).
     */
    private List<BlobEntry> withExtensionCells(BlobTransaction.Form form, List<BlobEntry> entries) {
        if (form == BlobTransaction.Form.EIP_7594) {
            return entries;
        }
        List<BlobEntry> complete = new ArrayList<>(entries.size());
        for (BlobEntry entry : entries) {
            complete.add(
                    convertV0Sidecars ? converted(entry) : entry.withExtensionCells(work.extensionCells(entry.blob())));
        }
        return complete;
    }

    /**
     * {@code entry} with cell proofs and extension cells: those of the pooled entry with the same versioned hash (so
     * the same commitment and blob) if it has them, as when a transaction is replaced by one over the same blobs;
     * computed otherwise.
     */
    private BlobEntry converted(BlobEntry entry) {
        BlobEntry pooled = pool.get(entry.versionedHash());
        if (pooled != null && pooled.cellProofs() != null && pooled.extensionCells() != null) {
            return new BlobEntry(
                    entry.blob(), entry.commitment(), entry.blobProof(), pooled.cellProofs(), pooled.extensionCells());
        }
        return work.withCellProofs(entry);
    }
}
