package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pool and its files under one owner: added means on disk, evicted means deleted, reopened means the same. */
class DurableBlobPoolTest {
    @TempDir
    Path dir;

    private List<String> files() throws Exception {
        try (Stream<Path> listing = Files.list(dir.resolve("blobs"))) {
            return listing.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String file(int sequence, PoolItem item) {
        return String.format("%012d-%s.blob", sequence, item.key());
    }

    @Test
    void anAddedItemIsOnDiskAndAnEvictedOneIsDeleted() throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dir, 2, ServerMetrics.NONE);
        PoolItem[] items = new PoolItem[3];
        for (int i = 0; i < 3; i++) {
            items[i] = PoolItem.generated(BlobPoolTest.entry(i));
            assertTrue(pool.add(items[i]));
        }
        assertEquals(List.of(items[1].key(), items[2].key()), pool.itemKeys());
        assertEquals(List.of(file(2, items[1]), file(3, items[2])), files());
        assertFalse(pool.add(items[2]), "an item is pooled once");
        assertEquals(List.of(file(2, items[1]), file(3, items[2])), files(), "and stored once");

        DurableBlobPool reopened = DurableBlobPool.open(dir, 2, ServerMetrics.NONE);
        assertEquals(pool.itemKeys(), reopened.itemKeys());
        assertEquals(pool.hashes(), reopened.hashes());
        PoolItem fourth = PoolItem.generated(BlobPoolTest.entry(3));
        assertTrue(reopened.add(fourth));
        assertEquals(List.of(file(3, items[2]), file(4, fourth)), files(), "the reopened pool remembers its files");
    }

    @Test
    void aTransactionBringsOnlyItsNewBlobs() throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dir, 8, ServerMetrics.NONE);
        BlobEntry known = BlobPoolTest.entry(10);
        assertTrue(pool.add(PoolItem.generated(known)));
        byte[] hash = new byte[32];
        hash[0] = 7;
        assertEquals(1, pool.addTransaction(hash, List.of(known, BlobPoolTest.entry(11))));
        assertEquals(-1, pool.addTransaction(hash, List.of(BlobPoolTest.entry(12))), "already pooled");
        assertEquals(2, pool.size());
        assertEquals(2, files().size());
        assertEquals(1, pool.generatedItems());
    }
}
