package io.hexstream.server.pool;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The blob pool: entries by versioned hash, in insertion order, at most {@code capacity} of them; the
 * oldest is evicted first. Thread-safe: lookups and insertions take one lock for a few map
 * operations, never for I/O. A response holding an entry keeps its bytes alive after eviction.
 */
public final class BlobPool {
    private final int capacity;
    private final LinkedHashMap<VersionedHash, BlobEntry> entries = new LinkedHashMap<>();
    private final Consumer<VersionedHash> onEvict;

    /** A pool of at most {@code capacity} blobs that calls {@code onEvict} (outside the lock) for each one it drops. */
    public BlobPool(int capacity, Consumer<VersionedHash> onEvict) {
        if (capacity < 1) {
            throw new IllegalArgumentException("pool capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.onEvict = onEvict;
    }

    public BlobPool(int capacity) {
        this(capacity, hash -> {});
    }

    /** Adds {@code entry} under its versioned hash unless present; returns whether it was added. */
    public boolean add(BlobEntry entry) {
        VersionedHash hash = entry.versionedHash();
        List<VersionedHash> evicted = new ArrayList<>(0);
        synchronized (entries) {
            if (entries.containsKey(hash)) {
                return false;
            }
            entries.put(hash, entry);
            for (Iterator<VersionedHash> oldest = entries.keySet().iterator(); entries.size() > capacity; ) {
                evicted.add(oldest.next());
                oldest.remove();
            }
        }
        evicted.forEach(onEvict);
        return true;
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

    public int capacity() {
        return capacity;
    }

    /** A snapshot of all entries by hash, in insertion order. */
    public Map<VersionedHash, BlobEntry> snapshot() {
        synchronized (entries) {
            return new LinkedHashMap<>(entries);
        }
    }
}
