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
 * Pooled entries rendered once as JSON ({@link EncodedEntry}), at most {@code maxBytes} of them, the entry that entered
 * the pool first evicted first. It follows the pool as its {@link PoolListener}: an entry is rendered by the
 * {@link Renderer} when it enters (on the thread adding it, never an event loop) and released when it leaves. An entry
 * the renderer leaves out, or whose element alone passes {@code maxBytes}, is not cached.
 *
 * <p>Thread-safe: lookups ({@link #retainAll}, on the event loops) and changes take one lock for a few map operations;
 * rendering and releasing happen outside it. Memory: pooled direct buffers of {@link PooledByteBufAllocator#DEFAULT},
 * apart from the allocator the responses' chunks come from, so that a response's slices of them cost no object (its
 * slices are recycled) and the cache's long-lived buffers share no arena with them.
 */
public final class HexCache implements PoolListener {
    /** Renders what the cache keeps of an entry. */
    @FunctionalInterface
    public interface Renderer {
        /**
         * {@code entry}'s element, in a buffer of {@code allocator}'s (the caller owns it), or {@code null} if this
         * entry is not worth caching.
         */
        EncodedEntry render(BlobEntry entry, ByteBufAllocator allocator);
    }

    private final long maxBytes;
    private final ByteBufAllocator allocator;
    private final Renderer renderer;
    /**
     * By pooled entry, oldest first; guarded by itself, as is {@code bytes}. Keyed by the entry, not its versioned
     * hash: the pool enters one entry per hash, a record compares its arrays by reference (so a key is that very
     * entry), and hashing it costs no SHA-256 per lookup, which the hash would.
     */
    private final LinkedHashMap<BlobEntry, EncodedEntry> entries = new LinkedHashMap<>();

    private long bytes;
    private boolean closed;

    /** A cache of at most {@code maxBytes} bytes, in {@link PooledByteBufAllocator#DEFAULT}'s direct memory. */
    public HexCache(long maxBytes, Renderer renderer) {
        this(maxBytes, PooledByteBufAllocator.DEFAULT, renderer);
    }

    /** @throws IllegalArgumentException if {@code maxBytes < 1} */
    public HexCache(long maxBytes, ByteBufAllocator allocator, Renderer renderer) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("hex cache of " + maxBytes + " bytes: at least 1");
        }
        this.maxBytes = maxBytes;
        this.allocator = allocator;
        this.renderer = renderer;
    }

    /** Renders {@code entry}, then caches it, evicting the oldest entries while more than the bound would be held. */
    @Override
    public void entered(BlobEntry entry) {
        EncodedEntry encoded = renderer.render(entry, allocator);
        if (encoded == null) {
            return;
        }
        if (encoded.bytes() > maxBytes) {
            encoded.release();
            return;
        }
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

    /** Releases {@code entry}'s element, if this very entry's is cached (a response holding slices keeps it alive). */
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
     * Keeps {@code old}'s element, if cached, for {@code now}: the same blob and proofs with extension cells added
     * (which no element holds), so nothing is rendered again. The entry moves to the newest place, as re-keying a
     * {@link LinkedHashMap} does; only items loaded from an older store file are replaced, at start.
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
     * The element of every non-null entry of {@code pooled}, each retained once, at its index ({@code null} where the
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

    /** Bytes held. */
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
