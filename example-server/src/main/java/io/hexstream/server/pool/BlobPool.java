package io.hexstream.server.pool;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.blob.PoolItem;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The blob pool: entries by versioned hash, at most {@code capacity} of them, added and evicted as {@link PoolItem}s (a
 * generated blob, or a transaction's blobs) in insertion order, the oldest item first; {@link DurableBlobPool} keeps it
 * on disk. An item holds each of its blobs; a blob held by several items (a replacement transaction carries the blobs
 * of the one it replaces) is pooled once, as one {@link BlobEntry} instance that every holder shares, and stays until
 * its last holder is evicted. Thread-safe: lookups and insertions take one lock for a few map operations, never for
 * I/O. A response holding an entry keeps its bytes alive after eviction.
 *
 * <p>Items of an {@link Origin#UNAUTHENTICATED unauthenticated} origin (a port without JWT: anyone) are bounded: the
 * blobs they hold (a blob counts once, if any of them holds it) are at most {@link #unauthenticatedShare()}, half the
 * capacity; one of them makes room by evicting the oldest of its own origin only, never an authenticated item, and is
 * refused ({@link PoolRefusedException}) when that does not make room; and at most {@link #MAX_TRANSACTIONS_PER_SENDER}
 * of them are pooled per sender. The pool keeps every transaction it is given (it knows no nonce), so a transaction
 * with the nonce of a pooled one from the same sender counts as one more. An authenticated item evicts the oldest items
 * of any origin, as it always did.
 */
public final class BlobPool {
    /**
     * The most transactions of an unauthenticated origin pooled per sender: go-ethereum's blob pool limit
     * ({@code maxTxsPerAccount}, {@code core/txpool/blobpool/blobpool.go}).
     */
    public static final int MAX_TRANSACTIONS_PER_SENDER = 16;

    private final int capacity;
    /** Each pooled blob, in the order it was first pooled, with how many item entries hold it. */
    private final LinkedHashMap<VersionedHash, Held> entries = new LinkedHashMap<>();

    private final LinkedHashMap<String, PoolItem> items = new LinkedHashMap<>();
    private final Evictions onEvict;
    /** How many pooled blobs an item of the unauthenticated origin holds. */
    private int unauthenticatedBlobs;
    /** How many pooled transactions of the unauthenticated origin each sender has. */
    private final Map<String, Integer> unauthenticatedBySender = new HashMap<>();

    /** Told, outside the pool's lock, of each item the pool drops. */
    @FunctionalInterface
    public interface Evictions {
        /**
         * {@code item} was evicted; {@code freed} are those of its entries that no other pooled item holds, now gone
         * from the pool (each once).
         */
        void evicted(PoolItem item, List<BlobEntry> freed);
    }

    /**
     * A pooled blob and the number of entries of pooled items that are it (an item may list a blob twice), of which
     * those of unauthenticated items.
     */
    private static final class Held {
        BlobEntry entry;
        int holders;
        int unauthenticatedHolders;

        Held(BlobEntry entry) {
            this.entry = entry;
        }
    }

    /** A pool of at most {@code capacity} blobs that tells {@code onEvict} of each item it drops. */
    public BlobPool(int capacity, Evictions onEvict) {
        if (capacity < 1) {
            throw new IllegalArgumentException("pool capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.onEvict = onEvict;
    }

    /**
     * Adds {@code item} unless an item with its key is pooled. Each of its entries whose versioned hash is pooled
     * already is taken as the pooled instance (the item then holds that one; the pool holds no second copy). Then
     * evicts the oldest items while more than {@code capacity} blobs are pooled; an evicted item's blobs stay while
     * another item holds them. An item of the unauthenticated origin evicts only items of its origin, oldest first,
     * while they hold more than {@link #unauthenticatedShare()} blobs or the pool more than {@code capacity}; the
     * caller has made sure, by {@link #checkAdmission} with no addition in between, that this makes room. Returns
     * whether it was added.
     *
     * @throws IllegalStateException if {@code item} is of the unauthenticated origin and {@link #checkAdmission} would
     *     refuse it; nothing was changed
     */
    public boolean add(PoolItem item) {
        List<PoolItem> evicted = new ArrayList<>(0);
        List<List<BlobEntry>> freed = new ArrayList<>(0);
        synchronized (entries) {
            if (items.containsKey(item.key())) {
                return false;
            }
            boolean unauthenticated = item.origin() == Origin.UNAUTHENTICATED;
            List<PoolItem> making;
            try {
                making = unauthenticated ? room(item) : List.of();
            } catch (PoolRefusedException e) {
                throw new IllegalStateException("item " + item.key() + " added without room: " + e.getMessage(), e);
            }
            List<BlobEntry> held = new ArrayList<>(item.entries().size());
            for (BlobEntry entry : item.entries()) {
                Held blob = entries.computeIfAbsent(entry.versionedHash(), hash -> new Held(entry));
                blob.holders++;
                if (unauthenticated && blob.unauthenticatedHolders++ == 0) {
                    unauthenticatedBlobs++;
                }
                held.add(blob.entry);
            }
            items.put(item.key(), item.holding(held));
            if (unauthenticated) {
                unauthenticatedBySender.merge(item.sender(), 1, Integer::sum);
            }
            for (PoolItem dropped : making) {
                evicted.add(items.remove(dropped.key()));
                freed.add(release(dropped));
            }
            for (Iterator<PoolItem> oldest = items.values().iterator(); entries.size() > capacity; ) {
                PoolItem dropped = oldest.next();
                oldest.remove();
                evicted.add(dropped);
                freed.add(release(dropped));
            }
        }
        for (int i = 0; i < evicted.size(); i++) {
            onEvict.evicted(evicted.get(i), freed.get(i));
        }
        return true;
    }

    /**
     * Whether {@link #add} would take {@code item}, not pooled yet: any item of the authenticated origin; one of the
     * unauthenticated origin if its sender has fewer than {@link #MAX_TRANSACTIONS_PER_SENDER} such transactions pooled
     * and evicting the oldest items of its origin makes room for it (in the share and in the pool). Changes nothing.
     *
     * @throws PoolRefusedException saying which limit refuses it
     */
    public void checkAdmission(PoolItem item) throws PoolRefusedException {
        if (item.origin() == Origin.UNAUTHENTICATED) {
            synchronized (entries) {
                room(item);
            }
        }
    }

    /**
     * The items to evict, oldest first, so that the unauthenticated {@code item} fits: every count as it would be with
     * {@code item} added, then items of its origin dropped one by one. Holds the lock.
     */
    private List<PoolItem> room(PoolItem item) throws PoolRefusedException {
        int pooled = unauthenticatedBySender.getOrDefault(item.sender(), 0);
        if (pooled >= MAX_TRANSACTIONS_PER_SENDER) {
            throw new PoolRefusedException(
                    PoolRefusedException.SENDER_LIMIT,
                    item.sender() + " has " + pooled + " transactions pooled from ports without JWT, at most "
                            + MAX_TRANSACTIONS_PER_SENDER + " per sender");
        }
        Map<VersionedHash, int[]> holds = new HashMap<>(); // blob -> {holders, unauthenticated holders}, as if changed
        int blobs = entries.size();
        int unauthenticated = unauthenticatedBlobs;
        for (BlobEntry entry : item.entries()) {
            int[] held = holds.computeIfAbsent(entry.versionedHash(), this::holds);
            blobs += held[0]++ == 0 ? 1 : 0;
            unauthenticated += held[1]++ == 0 ? 1 : 0;
        }
        checkShare(holds.size()); // its blobs, each once: what its origin holds once every other such item is gone
        List<PoolItem> evictions = new ArrayList<>();
        for (Iterator<PoolItem> older = items.values().iterator();
                (unauthenticated > unauthenticatedShare() || blobs > capacity) && older.hasNext(); ) {
            PoolItem dropped = older.next();
            if (dropped.origin() != Origin.UNAUTHENTICATED) {
                continue;
            }
            evictions.add(dropped);
            for (BlobEntry entry : dropped.entries()) {
                int[] held = holds.computeIfAbsent(entry.versionedHash(), this::holds);
                unauthenticated -= --held[1] == 0 ? 1 : 0;
                blobs -= --held[0] == 0 ? 1 : 0;
            }
        }
        if (blobs > capacity) {
            throw new PoolRefusedException(
                    PoolRefusedException.POOL_SHARE,
                    "the pool is full: its " + capacity + " blobs would have to lose some that came through the"
                            + " Engine API port, and ports without JWT evict only their own");
        }
        return evictions;
    }

    /**
     * Whether an item of the unauthenticated origin holding {@code blobs} distinct blobs fits in the share at all.
     *
     * @throws PoolRefusedException {@link PoolRefusedException#POOL_SHARE} if {@code blobs} is more than the share
     */
    public void checkShare(int blobs) throws PoolRefusedException {
        if (blobs > unauthenticatedShare()) {
            throw new PoolRefusedException(
                    PoolRefusedException.POOL_SHARE,
                    blobs + " blobs, more than the " + unauthenticatedShare() + " of the pool's " + capacity
                            + " that ports without JWT may fill");
        }
    }

    /** {holders, unauthenticated holders} of the blob {@code hash} as pooled now. Holds the lock. */
    private int[] holds(VersionedHash hash) {
        Held blob = entries.get(hash);
        return blob == null ? new int[2] : new int[] {blob.holders, blob.unauthenticatedHolders};
    }

    /** Drops {@code item}'s hold on each of its blobs; returns those it held last, now removed. */
    private List<BlobEntry> release(PoolItem item) {
        boolean unauthenticated = item.origin() == Origin.UNAUTHENTICATED;
        if (unauthenticated) {
            unauthenticatedBySender.computeIfPresent(item.sender(), (sender, n) -> n == 1 ? null : n - 1);
        }
        List<BlobEntry> freed = new ArrayList<>(item.entries().size());
        for (BlobEntry entry : item.entries()) {
            Held blob = entries.get(entry.versionedHash());
            if (unauthenticated && --blob.unauthenticatedHolders == 0) {
                unauthenticatedBlobs--;
            }
            if (--blob.holders == 0) {
                entries.remove(entry.versionedHash());
                freed.add(blob.entry);
            }
        }
        return freed;
    }

    /**
     * Puts {@code complete} in the place of {@code stale}, the pooled item with the same key and the same blobs in the
     * same order (now with more of their parts, such as extension cells), atomically: a lookup sees the one or the
     * other. A blob that another holder completed already keeps that holder's instance, which the item then holds.
     * Returns false, changing nothing, if {@code stale} is not pooled (evicted, or replaced already).
     */
    public boolean replace(PoolItem stale, PoolItem complete) {
        if (!stale.key().equals(complete.key())
                || stale.entries().size() != complete.entries().size()) {
            throw new IllegalArgumentException("item " + complete.key() + " does not replace item " + stale.key());
        }
        synchronized (entries) {
            if (items.get(stale.key()) != stale) {
                return false;
            }
            List<BlobEntry> held = new ArrayList<>(complete.entries().size());
            for (int i = 0; i < stale.entries().size(); i++) {
                BlobEntry old = stale.entries().get(i);
                BlobEntry now = complete.entries().get(i);
                if (!old.versionedHash().equals(now.versionedHash())) {
                    throw new IllegalArgumentException("blob " + i + " of item " + stale.key() + " differs");
                }
                Held blob = entries.get(old.versionedHash());
                if (blob.entry == old) {
                    blob.entry = now;
                }
                held.add(blob.entry);
            }
            items.put(stale.key(), stale.holding(held)); // the key keeps its place
            return true;
        }
    }

    /** The pooled item with this key ({@link PoolItem#key()}), or {@code null}: it holds the pooled instances. */
    public PoolItem item(String key) {
        synchronized (entries) {
            return items.get(key);
        }
    }

    /** The keys of the items, in insertion order, of which some entry has no extension cells yet (a snapshot). */
    public List<String> itemsWithoutExtensionCells() {
        synchronized (entries) {
            return items.values().stream()
                    .filter(item -> item.entries().stream().anyMatch(entry -> entry.extensionCells() == null))
                    .map(PoolItem::key)
                    .toList();
        }
    }

    /** The entries of {@code candidates} whose versioned hash is not pooled, each hash once, in order. */
    public List<BlobEntry> notPooled(List<BlobEntry> candidates) {
        Map<VersionedHash, BlobEntry> fresh = new LinkedHashMap<>();
        synchronized (entries) {
            for (BlobEntry entry : candidates) {
                if (!entries.containsKey(entry.versionedHash())) {
                    fresh.putIfAbsent(entry.versionedHash(), entry);
                }
            }
        }
        return new ArrayList<>(fresh.values());
    }

    /** Whether an item with this key ({@link PoolItem#key()}) is pooled. */
    public boolean containsItem(String key) {
        synchronized (entries) {
            return items.containsKey(key);
        }
    }

    /** How many pooled items are generated blobs. */
    public int generatedItems() {
        synchronized (entries) {
            return (int) items.values().stream()
                    .filter(item -> !item.isTransaction())
                    .count();
        }
    }

    /** Whether the transaction with this 32-byte hash is pooled. */
    public boolean containsTransaction(byte[] transactionHash) {
        String key = PoolItem.keyOf(transactionHash);
        synchronized (entries) {
            return items.containsKey(key);
        }
    }

    /** The entry for {@code hash}, or {@code null}. */
    public BlobEntry get(VersionedHash hash) {
        synchronized (entries) {
            Held blob = entries.get(hash);
            return blob == null ? null : blob.entry;
        }
    }

    /** Entries for each hash, {@code null} where missing, looked up under one lock. */
    public BlobEntry[] getAll(VersionedHash[] hashes) {
        BlobEntry[] found = new BlobEntry[hashes.length];
        synchronized (entries) {
            for (int i = 0; i < hashes.length; i++) {
                Held blob = entries.get(hashes[i]);
                found[i] = blob == null ? null : blob.entry;
            }
        }
        return found;
    }

    /** The number of pooled blobs (each once, however many items hold it). */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** The versioned hashes in the order they were first pooled (a snapshot). */
    public List<VersionedHash> hashes() {
        synchronized (entries) {
            return new ArrayList<>(entries.keySet());
        }
    }

    /** The items' keys in insertion order (a snapshot). */
    public List<String> itemKeys() {
        synchronized (entries) {
            return new ArrayList<>(items.keySet());
        }
    }

    public int capacity() {
        return capacity;
    }

    /** The most blobs items of the unauthenticated origin may hold: half the capacity, rounded down. */
    public int unauthenticatedShare() {
        return capacity / 2;
    }
}
