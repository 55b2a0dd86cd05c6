package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.blob.VersionedHash;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlobPoolTest {

    /** An entry with a distinct (not KZG-valid) commitment: the pool does not verify. */
    static BlobEntry entry(int n) {
        byte[] commitment = new byte[48];
        commitment[0] = (byte) n;
        commitment[1] = (byte) (n >> 8);
        return new BlobEntry(new byte[BlobSizes.BLOB_SIZE], commitment, null, new byte[BlobSizes.CELL_PROOFS_SIZE]);
    }

    static PoolItem item(int n) {
        return PoolItem.generated(entry(n));
    }

    @Test
    void theOldestIsEvictedFirstAndReported() {
        List<VersionedHash> evicted = new ArrayList<>();
        BlobPool pool = new BlobPool(
                3, (item, freed) -> evicted.add(item.entries().get(0).versionedHash()));
        for (int i = 0; i < 5; i++) {
            assertTrue(pool.add(item(i)));
        }
        assertEquals(List.of(entry(0).versionedHash(), entry(1).versionedHash()), evicted);
        assertEquals(
                List.of(entry(2).versionedHash(), entry(3).versionedHash(), entry(4).versionedHash()), pool.hashes());
        assertNull(pool.get(entry(0).versionedHash()));
    }

    private static byte[] txHash(int n) {
        byte[] hash = new byte[32];
        hash[0] = (byte) n;
        return hash;
    }

    private static List<VersionedHash> hashesOf(List<BlobEntry> entries) {
        return entries.stream().map(BlobEntry::versionedHash).toList();
    }

    @Test
    void aSharedBlobStaysWhileAnyHolderIsPooledAndGoesWithTheLast() {
        List<PoolItem> evicted = new ArrayList<>();
        List<BlobEntry> freed = new ArrayList<>();
        BlobPool pool = new BlobPool(4, (item, blobs) -> {
            evicted.add(item);
            freed.addAll(blobs);
        });
        pool.add(item(1));
        PoolItem replaced = PoolItem.transaction(txHash(7), List.of(entry(1), entry(2), entry(3)));
        PoolItem replacement = PoolItem.transaction(txHash(8), List.of(entry(2), entry(3))); // the same blobs
        assertTrue(pool.add(replaced));
        assertTrue(pool.add(replacement));
        assertFalse(pool.add(PoolItem.transaction(txHash(8), List.of())), "a transaction is pooled once");
        assertEquals(3, pool.size(), "each blob once");
        BlobEntry shared = pool.get(entry(2).versionedHash());
        assertSame(shared, pool.item(replaced.key()).entries().get(1), "one instance for every holder");
        assertSame(shared, pool.item(replacement.key()).entries().get(0));

        pool.add(item(4));
        pool.add(item(5)); // 5 blobs: item(1) goes, its blob held by the first transaction; then that one
        assertEquals(
                List.of(item(1).key(), replaced.key()),
                evicted.stream().map(PoolItem::key).toList());
        assertEquals(List.of(entry(1).versionedHash()), hashesOf(freed), "entry(1) with its last holder only");
        assertTrue(pool.containsTransaction(txHash(8)));
        assertSame(shared, pool.get(entry(2).versionedHash()), "the replacement's blobs stay");
        assertEquals(
                List.of(
                        entry(2).versionedHash(),
                        entry(3).versionedHash(),
                        entry(4).versionedHash(),
                        entry(5).versionedHash()),
                pool.hashes());

        pool.add(item(6)); // then the replacement, and its blobs with it
        assertEquals(replacement.key(), evicted.get(2).key());
        assertEquals(
                List.of(entry(1).versionedHash(), entry(2).versionedHash(), entry(3).versionedHash()), hashesOf(freed));
        assertSame(shared, freed.get(1));
        assertNull(pool.get(entry(2).versionedHash()));
        assertEquals(
                List.of(entry(4).versionedHash(), entry(5).versionedHash(), entry(6).versionedHash()), pool.hashes());
    }

    /**
     * Random items over a few blobs, against a model of the rule written out here: items in order, the oldest dropped
     * while their blobs (each counted once) are more than the capacity. The pool's items, blobs, count and bytes, and
     * the blobs each eviction frees, match the model's after every add.
     */
    @Test
    void countsAndBytesMatchAnIndependentModel() {
        Random random = new Random(21);
        Map<String, Set<VersionedHash>> model = new LinkedHashMap<>();
        List<VersionedHash> modelFreed = new ArrayList<>();
        List<VersionedHash> freed = new ArrayList<>();
        int capacity = 6;
        BlobPool pool = new BlobPool(capacity, (item, blobs) -> freed.addAll(hashesOf(blobs)));
        for (int n = 0; n < 400; n++) {
            List<BlobEntry> blobs = new ArrayList<>();
            for (int b = random.nextInt(4); b >= 0; b--) {
                blobs.add(entry(random.nextInt(10))); // a blob may repeat, within an item and across items
            }
            PoolItem item = PoolItem.transaction(txHash(n % 200), blobs);
            boolean added = !model.containsKey(item.key());
            assertEquals(added, pool.add(item));
            if (added) {
                model.put(item.key(), new HashSet<>(hashesOf(blobs)));
                while (union(model.values()).size() > capacity) {
                    String oldest = model.keySet().iterator().next();
                    Set<VersionedHash> before = union(model.values());
                    model.remove(oldest);
                    before.removeAll(union(model.values()));
                    modelFreed.addAll(before);
                }
            }
            Set<VersionedHash> expected = union(model.values());
            assertEquals(List.copyOf(model.keySet()), pool.itemKeys());
            assertEquals(expected, Set.copyOf(pool.hashes()));
            assertEquals(expected.size(), pool.size());
            assertEquals(Set.copyOf(modelFreed), Set.copyOf(freed));
            assertEquals(modelFreed.size(), freed.size(), "each blob freed once");
            assertEquals(heldBytes(pool), servedBytes(pool), "no copy beside the served one");
        }
    }

    private static Set<VersionedHash> union(Iterable<Set<VersionedHash>> sets) {
        Set<VersionedHash> all = new HashSet<>();
        sets.forEach(all::addAll);
        return all;
    }

    /** The bytes of the arrays the pooled items hold, each array counted once however often it is held. */
    private static long heldBytes(BlobPool pool) {
        Set<byte[]> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
        for (String key : pool.itemKeys()) {
            for (BlobEntry entry : pool.item(key).entries()) {
                arrays.add(entry.blob());
                arrays.add(entry.commitment());
                arrays.add(entry.cellProofs());
            }
        }
        return arrays.stream().mapToLong(array -> array.length).sum();
    }

    /** The bytes the lookups serve: blob, commitment and cell proofs of each pooled blob. */
    private static long servedBytes(BlobPool pool) {
        long bytes = 0;
        for (BlobEntry entry : pool.getAll(pool.hashes().toArray(VersionedHash[]::new))) {
            bytes += entry.blob().length + entry.commitment().length + entry.cellProofs().length;
        }
        assertEquals((long) pool.size() * (BlobSizes.BLOB_SIZE + 48 + BlobSizes.CELL_PROOFS_SIZE), bytes);
        return bytes;
    }

    @Test
    void anEntryIsStoredOnce() {
        BlobPool pool = new BlobPool(3, (item, freed) -> {});
        BlobEntry first = entry(1);
        assertTrue(pool.add(PoolItem.generated(first)));
        assertFalse(pool.add(item(1)));
        assertSame(first, pool.get(first.versionedHash()));
        assertEquals(1, pool.size());
    }

    @Test
    void lookupsGiveNullWhereMissing() {
        BlobPool pool = new BlobPool(3, (item, freed) -> {});
        pool.add(item(1));
        BlobEntry[] found = pool.getAll(new VersionedHash[] {entry(2).versionedHash(), entry(1).versionedHash()});
        assertNull(found[0]);
        assertEquals(entry(1).versionedHash(), found[1].versionedHash());
    }

    @Test
    void entriesAreCheckedForSize() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new BlobEntry(new byte[131_071], new byte[48], new byte[48], null));
        assertThrows(IllegalArgumentException.class, () -> new BlobEntry(new byte[131_072], new byte[48], null, null));
        assertThrows(IllegalArgumentException.class, () -> new BlobPool(0, (item, freed) -> {}));
    }

    @Test
    void versionedHashIsVersionByteThenSha256Tail() {
        VersionedHash hash = VersionedHash.ofCommitment(new byte[48]);
        // sha256 of 48 zero bytes is 0x17b0761f87b081d5cf10757ccc89f12be355c70e2e29df288b65b30710dcbcd1
        assertEquals("0x01b0761f87b081d5cf10757ccc89f12be355c70e2e29df288b65b30710dcbcd1", hash.toString());
    }
}
