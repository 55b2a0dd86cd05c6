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
import java.util.List;
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
        BlobPool pool =
                new BlobPool(3, item -> evicted.add(item.entries().get(0).versionedHash()));
        for (int i = 0; i < 5; i++) {
            assertTrue(pool.add(item(i)));
        }
        assertEquals(List.of(entry(0).versionedHash(), entry(1).versionedHash()), evicted);
        assertEquals(
                List.of(entry(2).versionedHash(), entry(3).versionedHash(), entry(4).versionedHash()), pool.hashes());
        assertNull(pool.get(entry(0).versionedHash()));
    }

    @Test
    void aTransactionIsAddedAndEvictedAsOneAndKeepsOnlyWhatItBrought() {
        List<PoolItem> evicted = new ArrayList<>();
        BlobPool pool = new BlobPool(4, evicted::add);
        pool.add(item(1));
        byte[] txHash = new byte[32];
        txHash[0] = 7;
        List<BlobEntry> brought = pool.notPooled(List.of(entry(1), entry(2), entry(3), entry(2)));
        assertEquals(
                List.of(entry(2).versionedHash(), entry(3).versionedHash()),
                brought.stream().map(BlobEntry::versionedHash).toList());
        assertTrue(pool.add(PoolItem.transaction(txHash, brought)));
        assertTrue(pool.containsTransaction(txHash.clone()));
        assertFalse(pool.add(PoolItem.transaction(txHash, List.of())));
        assertEquals(3, pool.size());

        pool.add(item(4));
        pool.add(item(5)); // 5 blobs: the oldest item, entry(1), goes
        assertEquals(
                List.of(entry(1).versionedHash()),
                evicted.stream().map(i -> i.entries().get(0).versionedHash()).toList());
        pool.add(item(6)); // then the transaction, both its blobs at once
        assertEquals(2, evicted.size());
        assertSame(brought.get(0), evicted.get(1).entries().get(0));
        assertFalse(pool.containsTransaction(txHash));
        assertEquals(
                List.of(entry(4).versionedHash(), entry(5).versionedHash(), entry(6).versionedHash()), pool.hashes());
    }

    @Test
    void anEntryIsStoredOnce() {
        BlobPool pool = new BlobPool(3, item -> {});
        BlobEntry first = entry(1);
        assertTrue(pool.add(PoolItem.generated(first)));
        assertFalse(pool.add(item(1)));
        assertSame(first, pool.get(first.versionedHash()));
        assertEquals(1, pool.size());
    }

    @Test
    void lookupsGiveNullWhereMissing() {
        BlobPool pool = new BlobPool(3, item -> {});
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
        assertThrows(IllegalArgumentException.class, () -> new BlobPool(0, item -> {}));
    }

    @Test
    void versionedHashIsVersionByteThenSha256Tail() {
        VersionedHash hash = VersionedHash.ofCommitment(new byte[48]);
        // sha256 of 48 zero bytes is 0x17b0761f87b081d5cf10757ccc89f12be355c70e2e29df288b65b30710dcbcd1
        assertEquals("0x01b0761f87b081d5cf10757ccc89f12be355c70e2e29df288b65b30710dcbcd1", hash.toString());
    }
}
