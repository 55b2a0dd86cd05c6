package io.hexstream.server.cache;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.pool.PoolListener;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The digits of pooled entries ({@link EncodedEntry}), at most {@code maxBytes} of them, the entry that entered the
 * pool first evicted first. It follows the pool as its {@link PoolListener}: an entry is encoded when it enters (on the
 * thread adding it, never an event loop) and released when it leaves. An entry whose digits alone pass {@code maxBytes}
 * is not cached.
 *
 * <p>Thread-safe: lookups ({@link #retainAll}, on the event loops) and changes take one lock for a few map operations;
 * encoding and releasing happen outside it. Memory: the blobs' digits in pooled direct buffers of
 * {@link PooledByteBufAllocator#DEFAULT}, apart from the allocator the responses' chunks come from, so that a
 * response's slices of them cost no object (its slices are recycled) and the cache's long-lived buffers share no arena
 * with them; the proofs' digits, copied into the chunks, on the heap ({@link EncodedEntry}).
 */
public final class HexCache implements PoolListener {
    private final long maxBytes;
    private final ByteBufAllocator allocator;
    /**
     * By pooled entry, oldest first; guarded by itself, as is {@code bytes}. Keyed by the entry, not its versioned
     * hash: the pool enters one entry per hash, a record compares its arrays by reference (so a key is that very
     * entry), and hashing it costs no SHA-256 per lookup, which the hash would.
     */
    private final LinkedHashMap<BlobEntry, EncodedEntry> entries = new LinkedHashMap<>();

    private long bytes;
    private boolean closed;

    /**
     * A cache of at most {@code maxBytes} bytes of digits, the blobs' in {@link PooledByteBufAllocator#DEFAULT}'s
     * direct memory.
     */
    public HexCache(long maxBytes) {
        this(maxBytes, PooledByteBufAllocator.DEFAULT);
    }

    /** @throws IllegalArgumentException if {@code maxBytes < 1} */
    public HexCache(long maxBytes, ByteBufAllocator allocator) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("hex cache of " + maxBytes + " bytes: at least 1");
        }
        this.maxBytes = maxBytes;
        this.allocator = allocator;
    }

    /** Encodes {@code entry}, then caches it, evicting the oldest entries while more than the bound would be held. */
    @Override
    public void entered(BlobEntry entry) {
        if (EncodedEntry.sizeOf(entry) > maxBytes) {
            return;
        }
        EncodedEntry encoded = EncodedEntry.encode(entry, allocator);
        List<EncodedEntry> evicted = new ArrayList<>(1);
        synchronized (entries) {
            if (closed || entries.containsKey(entry)) {
                evicted.add(encoded);
            } else {
                for (Iterator<EncodedEntry> oldest = entries.values().iterator();
                        bytes + encoded.bytes() > maxBytes; ) {
                    EncodedEntry dropped = oldest.next();
                    oldest.remove();
                    bytes -= dropped.bytes();
                    evicted.add(dropped);
                }
                entries.put(entry, encoded);
                bytes += encoded.bytes();
            }
        }
        evicted.forEach(EncodedEntry::release);
    }

    /**
     * Releases {@code entry}'s digits, if this very entry's are cached (a response holding slices keeps them alive).
     */
    @Override
    public void left(BlobEntry entry) {
        EncodedEntry removed;
        synchronized (entries) {
            removed = entries.remove(entry);
            if (removed == null) {
                return;
            }
            bytes -= removed.bytes();
        }
        removed.release();
    }

    /**
     * Keeps {@code old}'s digits, if cached, for {@code now}: the same blob and proofs with extension cells added, so
     * nothing is encoded again. The entry moves to the newest place, as re-keying a {@link LinkedHashMap} does; only
     * items loaded from an older store file are replaced, at start.
     */
    @Override
    public void replaced(BlobEntry old, BlobEntry now) {
        synchronized (entries) {
            EncodedEntry encoded = entries.remove(old);
            if (encoded != null) {
                entries.put(now, encoded);
            }
        }
    }

    /**
     * The digits of every non-null entry of {@code pooled}, each retained once, at its index ({@code null} where the
     * entry is {@code null}); or {@code null}, nothing retained, unless every one is cached (as this very entry). Give
     * them back with {@link #releaseAll}.
     */
    public EncodedEntry[] retainAll(List<BlobEntry> pooled) {
        EncodedEntry[] found = new EncodedEntry[pooled.size()];
        synchronized (entries) {
            for (int i = 0; i < found.length; i++) {
                BlobEntry entry = pooled.get(i);
                if (entry == null) {
                    continue;
                }
                EncodedEntry encoded = entries.get(entry);
                if (encoded == null) {
                    return null; // nothing retained yet: retaining comes after every one is found
                }
                found[i] = encoded;
            }
            for (EncodedEntry encoded : found) {
                if (encoded != null) {
                    encoded.retain();
                }
            }
        }
        return found;
    }

    /** Gives back what {@link #retainAll} took; {@code null} is nothing. */
    public static void releaseAll(EncodedEntry[] retained) {
        if (retained != null) {
            for (EncodedEntry encoded : retained) {
                if (encoded != null) {
                    encoded.release();
                }
            }
        }
    }

    /** Bytes of digits held. */
    public long bytes() {
        synchronized (entries) {
            return bytes;
        }
    }

    /** Entries held. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** The bound, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }

    /** Releases every entry (responses in flight keep theirs); caches nothing more. Idempotent. */
    public void close() {
        List<EncodedEntry> all;
        synchronized (entries) {
            closed = true;
            all = new ArrayList<>(entries.values());
            entries.clear();
            bytes = 0;
        }
        all.forEach(EncodedEntry::release);
    }
}
