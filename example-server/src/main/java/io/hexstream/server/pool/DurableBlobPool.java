package io.hexstream.server.pool;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blob pool and its files under one owner: the in-memory {@link BlobPool} that answers lookups, and the
 * {@link BlobStore} in {@code <data-dir>/blobs/} that keeps it across restarts. An item is written (fsynced, with every
 * blob it holds) before it is added, so what is served is on disk; evicting an item deletes the file it was written to,
 * which this pool remembers (no directory listing). A blob that several items hold is in memory once and in each
 * holder's file: it is served, and kept across a restart, while any of them is pooled.
 *
 * <p>Thread-safe. Lookups take only the memory pool's short lock, so an event loop never waits for a write; additions,
 * which write and fsync, are serialised among themselves and belong on a thread that may block.
 */
public final class DurableBlobPool {
    private static final Logger LOG = LoggerFactory.getLogger(DurableBlobPool.class);
    /** The store's directory under the data dir: one file per item. */
    public static final String DIRECTORY = "blobs";

    private final BlobStore store;
    private final BlobPool memory;
    /** The file of each pooled item, by key; guarded by {@code this}. */
    private final Map<String, Path> files = new HashMap<>();

    private final PoolListener listener;

    private DurableBlobPool(BlobStore store, int capacity, PoolListener listener) {
        this.store = store;
        this.listener = listener;
        this.memory = new BlobPool(capacity, this::evicted);
    }

    /**
     * Opens the pool stored under {@code dataDir} (created if need be), of at most {@code capacity} blobs, with every
     * intact item found there, oldest first, each with the origin it was stored with (evicting the oldest if they are
     * more than {@code capacity}, as adding them would; an unauthenticated one the pool refuses is deleted).
     *
     * @param metrics told how long each fsync of the store takes
     * @throws IOException if the directory cannot be created or listed
     * @throws IllegalArgumentException if {@code capacity < 1}
     */
    public static DurableBlobPool open(Path dataDir, int capacity, ServerMetrics metrics) throws IOException {
        return open(dataDir, capacity, metrics, PoolListener.NONE);
    }

    /**
     * As {@link #open(Path, int, ServerMetrics)}, telling {@code listener} of every entry that enters the pool (from
     * the store, then as added) and leaves it.
     */
    public static DurableBlobPool open(Path dataDir, int capacity, ServerMetrics metrics, PoolListener listener)
            throws IOException {
        return open(dataDir, capacity, metrics, listener, StoreFiles.SYSTEM);
    }

    /** As {@link #open(Path, int, ServerMetrics, PoolListener)}, changing its files through {@code files}. */
    public static DurableBlobPool open(
            Path dataDir, int capacity, ServerMetrics metrics, PoolListener listener, StoreFiles files)
            throws IOException {
        DurableBlobPool pool = new DurableBlobPool(new BlobStore(dataDir, metrics, files), capacity, listener);
        synchronized (pool) {
            for (BlobStore.Stored stored : pool.store.loadAll()) {
                pool.admit(stored.item(), stored.file());
            }
        }
        return pool;
    }

    /**
     * Writes {@code item}, of the authenticated origin, durably, then adds it; evicts the oldest items (and deletes
     * their files) while more than {@code capacity} blobs are pooled. Its entries whose versioned hash is pooled
     * already are written and held as the pooled ones.
     *
     * @return false, writing nothing, if an item with its key is pooled already
     * @throws IOException if it could not be written durably; then nothing was added and no file of it is left
     * @throws IllegalArgumentException if {@code item} is of the unauthenticated origin: {@link #addTransaction} takes
     *     those, and may refuse them
     */
    public synchronized boolean add(PoolItem item) throws IOException {
        if (item.origin() == Origin.UNAUTHENTICATED) {
            throw new IllegalArgumentException("item " + item.key() + " is unauthenticated: add it by addTransaction");
        }
        if (memory.containsItem(item.key())) {
            return false;
        }
        PoolItem holding = holdingPooled(item);
        admit(holding, store.save(holding));
        return true;
    }

    /**
     * Adds {@code transaction} (holding all its entries: those pooled already are shared with their other holders),
     * written first as {@link #add} does; one of the unauthenticated origin only if the pool admits it
     * ({@link BlobPool#checkAdmission}), making room by evicting the oldest of its origin.
     *
     * @return how many blobs were new to the pool, or -1 if the transaction is pooled already
     * @throws PoolRefusedException if it is of the unauthenticated origin and the pool refuses it; nothing was written
     *     or changed
     * @throws IOException if it could not be written durably; then nothing was added
     */
    public synchronized int addTransaction(PoolItem transaction) throws IOException, PoolRefusedException {
        if (!transaction.isTransaction()) {
            throw new IllegalArgumentException("item " + transaction.key() + " is not a transaction");
        }
        if (memory.containsItem(transaction.key())) {
            return -1;
        }
        PoolItem holding = holdingPooled(transaction);
        memory.checkAdmission(holding);
        int fresh = memory.notPooled(holding.entries()).size();
        admit(holding, store.save(holding));
        return fresh;
    }

    /**
     * Whether {@link #addTransaction} would take {@code transaction} as the pool is now
     * ({@link BlobPool#checkAdmission}): a check to make before costly work, changing nothing.
     *
     * @throws PoolRefusedException saying which limit refuses it
     */
    public void checkAdmission(PoolItem transaction) throws PoolRefusedException {
        memory.checkAdmission(transaction);
    }

    /** {@code item} holding the pooled instance of each of its blobs that is pooled already. */
    private PoolItem holdingPooled(PoolItem item) {
        List<BlobEntry> held = new ArrayList<>(item.entries().size());
        for (BlobEntry entry : item.entries()) {
            BlobEntry pooled = memory.get(entry.versionedHash());
            held.add(pooled != null ? pooled : entry);
        }
        return item.holding(held);
    }

    /**
     * Gives the pooled item {@code key} its extension cells, those {@code cells} computes for each of its blobs that
     * lacks them (e.g. {@code Kzg::extensionCells}, a few milliseconds a blob; computed outside any lock; a blob that
     * another holder completed already is taken as it is), then rewrites its file in the current format (durably,
     * atomically) and puts the complete item in its place. An item evicted meanwhile stays evicted: its file is not
     * rewritten.
     *
     * @return whether the item was completed: false if it is not pooled, or has its cells already
     * @throws IOException if the file could not be rewritten durably; then the item is as it was in memory, and its
     *     file the old one or the complete one
     */
    public boolean completeExtensionCells(String key, UnaryOperator<byte[]> cells) throws IOException {
        PoolItem stale = memory.item(key);
        if (stale == null || stale.entries().stream().allMatch(entry -> entry.extensionCells() != null)) {
            return false;
        }
        List<BlobEntry> complete = new ArrayList<>(stale.entries().size());
        for (BlobEntry entry : stale.entries()) {
            BlobEntry pooled = memory.get(entry.versionedHash());
            complete.add(
                    entry.extensionCells() != null
                            ? entry
                            : pooled != null && pooled.extensionCells() != null
                                    ? pooled
                                    : entry.withExtensionCells(cells.apply(entry.blob())));
        }
        PoolItem item = stale.holding(complete);
        synchronized (this) { // eviction happens under this lock too: the item is still pooled, or gone for good
            Path file = files.get(key);
            if (file == null || memory.item(key) != stale) {
                return false;
            }
            store.rewrite(file, item);
            BlobEntry[] before = new BlobEntry[complete.size()];
            for (int i = 0; i < before.length; i++) {
                before[i] = memory.get(complete.get(i).versionedHash());
            }
            if (!memory.replace(stale, item)) {
                return false;
            }
            for (int i = 0; i < before.length; i++) {
                BlobEntry now = memory.get(complete.get(i).versionedHash());
                if (now != before[i]) {
                    listener.replaced(before[i], now);
                }
            }
            return true;
        }
    }

    /** The keys of the pooled items, oldest first, with a blob whose extension cells are not computed yet. */
    public List<String> itemsWithoutExtensionCells() {
        return memory.itemsWithoutExtensionCells();
    }

    /** Adds {@code item}, stored in {@code file}, telling the listener of each blob new to the pool. */
    private void admit(PoolItem item, Path file) {
        List<BlobEntry> fresh = memory.notPooled(item.entries());
        try {
            memory.checkAdmission(item); // refuses only an item read back, which a smaller pool may not hold now
        } catch (PoolRefusedException e) {
            LOG.warn("deleting {}: item {} is refused by the pool, {}", file, item.key(), e.getMessage());
            store.delete(file);
            return;
        }
        files.put(item.key(), file);
        if (!memory.add(item)) {
            files.remove(item.key());
            LOG.warn("deleting {}: item {} is stored twice", file, item.key());
            store.delete(file);
            return;
        }
        for (BlobEntry entry : fresh) {
            BlobEntry pooled = memory.get(entry.versionedHash());
            if (pooled != null) { // not evicted at once with its own item (one larger than the pool)
                listener.entered(pooled);
            }
        }
    }

    /**
     * Called by the memory pool, inside {@link #add} or {@link #open}: the item's file goes, and the blobs it held
     * last.
     */
    private void evicted(PoolItem item, List<BlobEntry> freed) {
        Path file = files.remove(item.key());
        if (file != null) {
            store.delete(file);
        }
        freed.forEach(listener::left);
    }

    /** Whether the transaction with this 32-byte hash is pooled. */
    public boolean containsTransaction(byte[] transactionHash) {
        return memory.containsTransaction(transactionHash);
    }

    /** The entry for {@code hash}, or {@code null}. */
    public BlobEntry get(VersionedHash hash) {
        return memory.get(hash);
    }

    /** Entries for each hash, {@code null} where missing, looked up under one short lock. */
    public BlobEntry[] getAll(VersionedHash[] hashes) {
        return memory.getAll(hashes);
    }

    /** The number of pooled blobs. */
    public int size() {
        return memory.size();
    }

    /** How many pooled items are generated blobs (not transactions). */
    public int generatedItems() {
        return memory.generatedItems();
    }

    /** The versioned hashes in insertion order (a snapshot). */
    public List<VersionedHash> hashes() {
        return memory.hashes();
    }

    /** The items' keys in insertion order (a snapshot). */
    public List<String> itemKeys() {
        return memory.itemKeys();
    }

    /** The most blobs pooled at once. */
    public int capacity() {
        return memory.capacity();
    }

    /**
     * Whether a transaction of the unauthenticated origin with {@code blobs} blobs fits in the pool's share for that
     * origin at all ({@link BlobPool#checkShare}): a check to make before any costly one.
     *
     * @throws PoolRefusedException {@link PoolRefusedException#POOL_SHARE} if not
     */
    public void checkShare(int blobs) throws PoolRefusedException {
        memory.checkShare(blobs);
    }
}
