package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
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

    /** A transaction through a port without JWT from sender {@code s} ({@code 0x} and 40 hex digits of {@code s}). */
    static PoolItem unauthenticated(int n, int s, BlobEntry... entries) {
        return PoolItem.unauthenticated(txHash(n), List.of(entries), sender(s));
    }

    static String sender(int s) {
        return String.format("0x%040x", s);
    }

    /**
     * Capacity 8, so a share of 4 for the unauthenticated origin: three generated blobs, then unauthenticated
     * transactions that make room by evicting the oldest of their own origin only, by the share and then by the
     * capacity, while every generated blob stays.
     */
    @Test
    void unauthenticatedItemsHoldAtMostHalfThePoolAndEvictOnlyTheirOwn() throws Exception {
        List<String> evicted = new ArrayList<>();
        BlobPool pool = new BlobPool(8, (item, freed) -> evicted.add(item.key()));
        assertEquals(4, pool.unauthenticatedShare());
        for (int i = 1; i <= 3; i++) {
            assertTrue(pool.add(item(i)));
        }
        PoolItem a = unauthenticated(10, 1, entry(10), entry(11));
        PoolItem b = unauthenticated(11, 2, entry(12), entry(13));
        PoolItem c = unauthenticated(12, 3, entry(14));
        for (PoolItem tx : List.of(a, b, c)) {
            pool.checkAdmission(tx);
            assertTrue(pool.add(tx));
        }
        assertEquals(List.of(a.key()), evicted, "4 unauthenticated blobs at most: a goes, the oldest of its origin");
        assertEquals(List.of(item(1).key(), item(2).key(), item(3).key(), b.key(), c.key()), pool.itemKeys());
        assertEquals(6, pool.size());
        assertNull(pool.get(entry(10).versionedHash()));

        assertTrue(pool.add(item(4)));
        assertTrue(pool.add(item(5))); // 8 blobs: the pool is full, nothing evicted
        assertEquals(List.of(a.key()), evicted);
        PoolItem d = unauthenticated(13, 4, entry(15));
        pool.checkAdmission(d);
        assertTrue(pool.add(d)); // 9 blobs: b goes (2 blobs), not item(1), the oldest of all
        assertEquals(List.of(a.key(), b.key()), evicted);
        assertEquals(
                List.of(item(1).key(), item(2).key(), item(3).key(), c.key(), item(4).key(), item(5).key(), d.key()),
                pool.itemKeys());
        assertEquals(7, pool.size());
        assertEquals(heldBytes(pool), servedBytes(pool));
    }

    /**
     * An unauthenticated item that cannot make room by evicting its own origin is refused with the reason, and the pool
     * is as it was: one larger than the share, and one that would need an authenticated blob evicted.
     */
    @Test
    void anUnauthenticatedItemWithoutRoomIsRefusedAndChangesNothing() throws Exception {
        List<String> evicted = new ArrayList<>();
        BlobPool pool = new BlobPool(4, (item, freed) -> evicted.add(item.key()));
        PoolItem large = unauthenticated(20, 1, entry(20), entry(21), entry(22));
        PoolRefusedException tooLarge = assertThrows(PoolRefusedException.class, () -> pool.checkAdmission(large));
        assertEquals(PoolRefusedException.POOL_SHARE, tooLarge.check());
        assertEquals(
                "pool share: 3 blobs, more than the 2 of the pool's 4 that ports without JWT may fill",
                tooLarge.getMessage());
        for (int i = 1; i <= 4; i++) {
            assertTrue(pool.add(item(i)));
        }
        List<String> keys = pool.itemKeys();
        PoolItem one = unauthenticated(21, 1, entry(23));
        PoolRefusedException full = assertThrows(PoolRefusedException.class, () -> pool.checkAdmission(one));
        assertEquals(
                "pool share: the pool is full: its 4 blobs would have to lose some that came through the Engine API"
                        + " port, and ports without JWT evict only their own",
                full.getMessage());
        assertThrows(IllegalStateException.class, () -> pool.add(one));
        assertEquals(keys, pool.itemKeys());
        assertEquals(4, pool.size());
        assertEquals(List.of(), evicted);
        PoolItem sharing = unauthenticated(22, 1, entry(2)); // holds a pooled blob: no new one, so it fits
        pool.checkAdmission(sharing);
        assertTrue(pool.add(sharing));
        assertEquals(4, pool.size());
        assertEquals(List.of(), evicted);
    }

    /**
     * go-ethereum's limit, 16 unauthenticated transactions pooled per sender: the 17th is refused and changes nothing;
     * another sender is not limited by it; once one of the 16 is evicted the sender may pool one more. An authenticated
     * transaction is not counted.
     */
    @Test
    void atMostSixteenUnauthenticatedTransactionsPerSender() throws Exception {
        BlobPool pool = new BlobPool(64, (item, freed) -> {});
        for (int n = 0; n < 16; n++) {
            PoolItem tx = unauthenticated(100 + n, 7, entry(200 + n));
            pool.checkAdmission(tx);
            assertTrue(pool.add(tx));
        }
        assertTrue(pool.add(PoolItem.transaction(txHash(150), List.of(entry(2)))));
        List<String> keys = pool.itemKeys();
        PoolItem seventeenth = unauthenticated(116, 7, entry(1));
        PoolRefusedException refused = assertThrows(PoolRefusedException.class, () -> pool.checkAdmission(seventeenth));
        assertEquals(PoolRefusedException.SENDER_LIMIT, refused.check());
        assertEquals(
                "sender limit: " + sender(7) + " has 16 transactions pooled from ports without JWT, at most 16 per"
                        + " sender",
                refused.getMessage());
        assertThrows(IllegalStateException.class, () -> pool.add(seventeenth));
        assertEquals(keys, pool.itemKeys());
        assertEquals(17, pool.size());
        PoolItem other = unauthenticated(117, 8, entry(1));
        pool.checkAdmission(other);
        assertTrue(pool.add(other));

        for (int i = 0; i < 47; i++) { // 65 blobs at the last: the oldest item goes, the first of sender 7
            assertTrue(pool.add(item(1000 + i)));
        }
        assertEquals(64, pool.size());
        assertFalse(pool.containsItem(unauthenticated(100, 7, entry(200)).key()));
        pool.checkAdmission(seventeenth);
        assertTrue(pool.add(seventeenth), "15 of sender 7 pooled now");
        assertThrows(PoolRefusedException.class, () -> pool.checkAdmission(unauthenticated(118, 7, entry(1))));
    }

    /**
     * Random items of both origins and a few senders, against a model of the rules written out here: an authenticated
     * item drops the oldest items while their blobs are more than the capacity; an unauthenticated one is refused if
     * its sender has 16 pooled or its blobs are more than the share, and otherwise drops the oldest unauthenticated
     * items while theirs are more than the share or all more than the capacity, refused (nothing dropped) if that is
     * not enough. The pool's items, blobs, count and bytes match the model's after every add.
     */
    @Test
    void bothOriginsMatchAnIndependentModel() {
        Random random = new Random(2121);
        int capacity = 8;
        Map<String, Set<VersionedHash>> model = new LinkedHashMap<>();
        Map<String, String> senders = new LinkedHashMap<>(); // unauthenticated items' senders, by key
        BlobPool pool = new BlobPool(capacity, (item, blobs) -> {});
        int refusals = 0;
        for (int n = 0; n < 600; n++) {
            List<BlobEntry> blobs = new ArrayList<>();
            for (int b = random.nextInt(3); b >= 0; b--) {
                blobs.add(entry(random.nextInt(14)));
            }
            boolean open = random.nextBoolean();
            String sender = sender(random.nextInt(2));
            PoolItem item = open
                    ? PoolItem.unauthenticated(txHash(n % 200), blobs, sender)
                    : PoolItem.transaction(txHash(n % 200), blobs);
            if (model.containsKey(item.key())) {
                assertFalse(pool.add(item));
                continue;
            }
            Map<String, Set<VersionedHash>> next = new LinkedHashMap<>(model);
            next.put(item.key(), new HashSet<>(hashesOf(blobs)));
            Map<String, String> nextSenders = new LinkedHashMap<>(senders);
            boolean admitted = true;
            if (open) {
                nextSenders.put(item.key(), sender);
                admitted = Collections.frequency(senders.values(), sender) < 16
                        && next.get(item.key()).size() <= capacity / 2;
                for (String key : List.copyOf(next.keySet())) {
                    if (!admitted
                            || union(subset(next, nextSenders.keySet())).size() <= capacity / 2
                                    && union(next.values()).size() <= capacity) {
                        break;
                    }
                    if (nextSenders.containsKey(key) && !key.equals(item.key())) {
                        next.remove(key);
                        nextSenders.remove(key);
                    }
                }
                admitted &= union(next.values()).size() <= capacity;
            } else {
                while (union(next.values()).size() > capacity) {
                    String oldest = next.keySet().iterator().next();
                    next.remove(oldest);
                    nextSenders.remove(oldest);
                }
            }
            if (admitted) {
                assertTrue(pool.add(item));
                model = next;
                senders = nextSenders;
            } else {
                refusals++;
                assertThrows(PoolRefusedException.class, () -> pool.checkAdmission(item));
            }
            assertEquals(List.copyOf(model.keySet()), pool.itemKeys());
            assertEquals(union(model.values()), Set.copyOf(pool.hashes()));
            assertEquals(union(model.values()).size(), pool.size());
            assertEquals(heldBytes(pool), servedBytes(pool));
        }
        assertTrue(refusals > 0, "the model refused some");
    }

    private static List<Set<VersionedHash>> subset(Map<String, Set<VersionedHash>> items, Set<String> keys) {
        return items.entrySet().stream()
                .filter(item -> keys.contains(item.getKey()))
                .map(Map.Entry::getValue)
                .toList();
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
