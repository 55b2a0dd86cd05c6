package io.hexstream.server.pool;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.blob.VersionedHash;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The blob pool: entries by versioned hash, at most {@code capacity} of them, added and evicted as {@link PoolItem}s (a
 * generated blob, or a transaction's blobs) in insertion order, the oldest item first; {@link DurableBlobPool} keeps it
 * on disk. A versioned hash is pooled once: an item brings only the entries not pooled before it, and evicting it
 * removes only those. Thread-safe: lookups and insertions take one lock for a few map operations, never for I/O. A
 * response holding an entry keeps its bytes alive after eviction.
 */
public final class BlobPool {
    private final int capacity;
    private final LinkedHashMap<VersionedHash, BlobEntry> entries = new LinkedHashMap<>();
    private final LinkedHashMap<String, PoolItem> items = new LinkedHashMap<>();
    private final Consumer<PoolItem> onEvict;

    /**
     * A pool of at most {@code capacity} blobs that calls {@code onEvict} (outside the lock) for each item it drops.
     */
    public BlobPool(int capacity, Consumer<PoolItem> onEvict) {
        if (capacity < 1) {
            throw new IllegalArgumentException("pool capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.onEvict = onEvict;
    }

    /**
     * Adds {@code item} unless an item with its key is pooled; its entries whose versioned hash is pooled already are
     * left out. Then evicts the oldest items while more than {@code capacity} blobs are pooled. Returns whether it was
     * added.
     */
    public boolean add(PoolItem item) {
        List<PoolItem> evicted = new ArrayList<>(0);
        synchronized (entries) {
            if (items.putIfAbsent(item.key(), item) != null) {
                return false;
            }
            for (BlobEntry entry : item.entries()) {
                entries.putIfAbsent(entry.versionedHash(), entry);
            }
            for (Iterator<PoolItem> oldest = items.values().iterator(); entries.size() > capacity; ) {
                PoolItem dropped = oldest.next();
                oldest.remove();
                for (BlobEntry entry : dropped.entries()) {
                    entries.remove(entry.versionedHash(), entry);
                }
                evicted.add(dropped);
            }
        }
        evicted.forEach(onEvict);
        return true;
    }

    /**
     * Puts {@code complete} in the place of {@code stale}, the pooled item with the same key and the same blobs in the
     * same order (now with more of their parts, such as extension cells), atomically: a lookup sees the one or the
     * other. Returns false, changing nothing, if {@code stale} is not pooled (evicted, or replaced already).
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
            items.put(stale.key(), complete); // an existing key keeps its place in the order
            for (int i = 0; i < stale.entries().size(); i++) {
                BlobEntry old = stale.entries().get(i);
                if (!old.versionedHash().equals(complete.entries().get(i).versionedHash())) {
                    throw new IllegalArgumentException("blob " + i + " of item " + stale.key() + " differs");
                }
                entries.replace(old.versionedHash(), old, complete.entries().get(i));
            }
            return true;
        }
    }

    /** The pooled item with this key ({@link PoolItem#key()}), or {@code null}. */
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
            return entries.get(hash);
        }
    }

    /** Entries for each hash, {@code null} where missing, looked up under one lock. */
    public BlobEntry[] getAll(VersionedHash[] hashes) {
        BlobEntry[] found = new BlobEntry[hashes.length];
        synchronized (entries) {
            for (int i = 0; i < hashes.length; i++) {
                found[i] = entries.get(hashes[i]);
            }
        }
        return found;
    }

    /** The number of pooled blobs. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** The versioned hashes in insertion order (a snapshot). */
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
}
