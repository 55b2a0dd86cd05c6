package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.RecordingStoreFiles;
import io.hexstream.server.testing.RecordingStoreFiles.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pool and its files under one owner: added means on disk (written, forced, renamed, directory forced, in that
 * order, before it returns), evicted means deleted, a blob kept while any holder is pooled, reopened means the same.
 */
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
        assertEquals(1, pool.addTransaction(PoolItem.transaction(hash, List.of(known, BlobPoolTest.entry(11)))));
        assertEquals(
                -1, pool.addTransaction(PoolItem.transaction(hash, List.of(BlobPoolTest.entry(12)))), "already pooled");
        assertEquals(2, pool.size());
        assertEquals(2, files().size());
        assertEquals(1, pool.generatedItems());
    }

    private static byte[] txHash(int n) {
        byte[] hash = new byte[32];
        hash[0] = (byte) n;
        return hash;
    }

    private static List<VersionedHash> hashes(int... blobs) {
        List<VersionedHash> hashes = new ArrayList<>();
        for (int blob : blobs) {
            hashes.add(BlobPoolTest.entry(blob).versionedHash());
        }
        return hashes;
    }

    /** The blobs the store's files hold, each counted once: read from disk, not from the pool. */
    private Set<VersionedHash> blobsOnDisk() throws Exception {
        Set<VersionedHash> blobs = new HashSet<>();
        try (Stream<Path> listing = Files.list(dir.resolve("blobs"))) {
            for (Path file : (Iterable<Path>) listing::iterator) {
                BlobStore.decode(Files.readAllBytes(file)).entries().forEach(entry -> blobs.add(entry.versionedHash()));
            }
        }
        return blobs;
    }

    /** Records what enters and leaves the pool. */
    private static final class Recorder implements PoolListener {
        final List<VersionedHash> entered = new ArrayList<>();
        final List<VersionedHash> left = new ArrayList<>();

        @Override
        public void entered(BlobEntry entry) {
            entered.add(entry.versionedHash());
        }

        @Override
        public void left(BlobEntry entry) {
            left.add(entry.versionedHash());
        }
    }

    @Test
    void aSharedBlobSurvivesTheEvictionOfOneHolderAndGoesWithTheLast() throws Exception {
        Recorder recorder = new Recorder();
        DurableBlobPool pool = DurableBlobPool.open(dir, 3, ServerMetrics.NONE, recorder);
        assertEquals(
                2,
                pool.addTransaction(
                        PoolItem.transaction(txHash(1), List.of(BlobPoolTest.entry(1), BlobPoolTest.entry(2)))));
        assertEquals(
                1,
                pool.addTransaction(
                        PoolItem.transaction(txHash(2), List.of(BlobPoolTest.entry(2), BlobPoolTest.entry(3)))),
                "the replacement brings one new blob and holds two");
        assertEquals(Set.copyOf(pool.hashes()), blobsOnDisk());
        assertEquals(3, pool.size());

        assertTrue(pool.add(PoolItem.generated(BlobPoolTest.entry(4)))); // 4 blobs: the first transaction goes
        assertEquals(
                List.of(
                        PoolItem.keyOf(txHash(2)),
                        PoolItem.generated(BlobPoolTest.entry(4)).key()),
                pool.itemKeys());
        assertEquals(hashes(1), recorder.left, "only the blob no one else holds");
        assertNotNull(pool.get(BlobPoolTest.entry(2).versionedHash()), "the replacement's blob is still served");
        assertEquals(
                -1,
                pool.addTransaction(
                        PoolItem.transaction(txHash(2), List.of(BlobPoolTest.entry(2), BlobPoolTest.entry(3)))),
                "re-sent, the replacement is pooled: rightly");
        assertEquals(Set.copyOf(hashes(2, 3, 4)), blobsOnDisk(), "and on disk, in the replacement's file");
        assertEquals(3, pool.size());

        assertTrue(pool.add(PoolItem.generated(BlobPoolTest.entry(5)))); // then the replacement
        assertEquals(hashes(1, 2, 3), recorder.left);
        assertNull(pool.get(BlobPoolTest.entry(2).versionedHash()));
        assertEquals(Set.copyOf(hashes(4, 5)), blobsOnDisk(), "no file holds it any more");
        assertEquals(2, pool.size());
        assertEquals(hashes(1, 2, 3, 4, 5), recorder.entered, "each blob entered once");
    }

    /**
     * Each transaction's origin survives a restart: after it, a transaction through a port without JWT still evicts
     * only the one of its origin (the share of a pool of 4 is 2 blobs), not the older Engine API one.
     */
    @Test
    void aRestartKeepsEachTransactionsOrigin() throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dir, 4, ServerMetrics.NONE);
        PoolItem engine = PoolItem.transaction(txHash(1), List.of(BlobPoolTest.entry(1)));
        PoolItem first = BlobPoolTest.unauthenticated(2, 7, BlobPoolTest.entry(2), BlobPoolTest.entry(3));
        assertEquals(1, pool.addTransaction(engine));
        assertEquals(2, pool.addTransaction(first));

        DurableBlobPool reopened = DurableBlobPool.open(dir, 4, ServerMetrics.NONE);
        PoolItem second = BlobPoolTest.unauthenticated(3, 8, BlobPoolTest.entry(4));
        assertEquals(1, reopened.addTransaction(second));
        assertEquals(List.of(engine.key(), second.key()), reopened.itemKeys());
        assertEquals(hashes(1, 4), reopened.hashes());
        assertEquals(Set.copyOf(hashes(1, 4)), blobsOnDisk());
        assertEquals(List.of(file(1, engine), file(3, second)), files());
    }

    /**
     * A sender's count survives a restart: 16 transactions through a port without JWT, and after the restart the 17th
     * is refused with nothing written.
     */
    @Test
    void aRestartKeepsEachSendersCount() throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dir, 64, ServerMetrics.NONE);
        for (int n = 0; n < 16; n++) {
            assertEquals(1, pool.addTransaction(BlobPoolTest.unauthenticated(10 + n, 7, BlobPoolTest.entry(20 + n))));
        }
        DurableBlobPool reopened = DurableBlobPool.open(dir, 64, ServerMetrics.NONE);
        List<String> stored = files();
        PoolRefusedException refused = assertThrows(
                PoolRefusedException.class,
                () -> reopened.addTransaction(BlobPoolTest.unauthenticated(30, 7, BlobPoolTest.entry(40))));
        assertEquals(PoolRefusedException.SENDER_LIMIT, refused.check());
        assertEquals(stored, files());
        assertEquals(16, reopened.size());
        assertEquals(1, reopened.addTransaction(BlobPoolTest.unauthenticated(31, 8, BlobPoolTest.entry(41))));
    }

    @Test
    void aRestartRestoresTheSameHolders() throws Exception {
        DurableBlobPool pool = DurableBlobPool.open(dir, 4, ServerMetrics.NONE);
        pool.addTransaction(PoolItem.transaction(txHash(1), List.of(BlobPoolTest.entry(1), BlobPoolTest.entry(2))));
        pool.addTransaction(PoolItem.transaction(txHash(2), List.of(BlobPoolTest.entry(2), BlobPoolTest.entry(3))));

        Recorder recorder = new Recorder();
        DurableBlobPool reopened = DurableBlobPool.open(dir, 4, ServerMetrics.NONE, recorder);
        assertEquals(pool.itemKeys(), reopened.itemKeys());
        assertEquals(pool.hashes(), reopened.hashes());
        assertEquals(hashes(1, 2, 3), recorder.entered, "the shared blob loaded once");
        reopened.add(PoolItem.generated(BlobPoolTest.entry(4)));
        reopened.add(PoolItem.generated(BlobPoolTest.entry(5))); // 5 blobs: the first transaction goes
        assertEquals(hashes(1), recorder.left, "the second still holds blob 2");
        assertEquals(hashes(2, 3, 4, 5), reopened.hashes());
        assertEquals(Set.copyOf(reopened.hashes()), blobsOnDisk());
        reopened.add(PoolItem.generated(BlobPoolTest.entry(6))); // then the second, with blobs 2 and 3
        assertEquals(hashes(1, 2, 3), recorder.left);
        assertEquals(hashes(4, 5, 6), reopened.hashes());
        assertEquals(Set.copyOf(reopened.hashes()), blobsOnDisk());
    }

    @Test
    void anItemIsWrittenForcedRenamedAndItsDirectoryForcedBeforeItIsPooled() throws Exception {
        RecordingStoreFiles files = new RecordingStoreFiles();
        DurableBlobPool pool = DurableBlobPool.open(dir, 1, ServerMetrics.NONE, PoolListener.NONE, files);
        PoolItem first = PoolItem.transaction(txHash(1), List.of(BlobPoolTest.entry(1)));
        String name = file(1, first);
        assertEquals(1, pool.addTransaction(PoolItem.transaction(txHash(1), first.entries())));
        assertEquals(
                List.of(
                        "WRITE " + name + ".tmp",
                        "FORCE " + name + ".tmp",
                        "RENAME " + name + ".tmp " + name,
                        "FORCE_DIRECTORY blobs"),
                files.take());
        pool.addTransaction(PoolItem.transaction(txHash(2), List.of(BlobPoolTest.entry(2))));
        String second = file(2, PoolItem.transaction(txHash(2), List.of()));
        assertEquals(
                List.of(
                        "WRITE " + second + ".tmp",
                        "FORCE " + second + ".tmp",
                        "RENAME " + second + ".tmp " + second,
                        "FORCE_DIRECTORY blobs",
                        "DELETE " + name),
                files.take(),
                "then the evicted item's file is deleted");

        pool.completeExtensionCells(PoolItem.keyOf(txHash(2)), blob -> new byte[131_072]);
        assertEquals(
                List.of(
                        "WRITE " + second + ".tmp",
                        "FORCE " + second + ".tmp",
                        "RENAME " + second + ".tmp " + second,
                        "FORCE_DIRECTORY blobs"),
                files.take(),
                "a rewrite too: never in place");
    }

    @ParameterizedTest
    @EnumSource(
            value = Op.class,
            names = {"WRITE", "FORCE", "RENAME", "FORCE_DIRECTORY"})
    void aFailedStepRefusesTheItemAndLeavesNoFile(Op failing) throws Exception {
        RecordingStoreFiles files = new RecordingStoreFiles().failing(failing);
        DurableBlobPool pool = DurableBlobPool.open(dir, 4, ServerMetrics.NONE, PoolListener.NONE, files);
        List<BlobEntry> entries = List.of(BlobPoolTest.entry(1));
        IOException refused =
                assertThrows(IOException.class, () -> pool.addTransaction(PoolItem.transaction(txHash(1), entries)));
        if (failing == Op.FORCE_DIRECTORY) {
            assertEquals(
                    "fsync of the directory " + dir.resolve("blobs") + " failed, so "
                            + file(1, PoolItem.transaction(txHash(1), List.of()))
                            + " might not survive a crash: injected FORCE_DIRECTORY"
                            + " failure",
                    refused.getMessage());
        } else {
            assertEquals("injected " + failing + " failure", refused.getMessage());
        }
        assertEquals(List.of(), pool.itemKeys());
        assertEquals(0, pool.size());
        assertFalse(pool.containsTransaction(txHash(1)));
        assertEquals(List.of(), files(), "neither the temporary file nor the renamed one is left");

        files.failing(null);
        assertEquals(
                1, pool.addTransaction(PoolItem.transaction(txHash(1), entries)), "taken once the disk works again");
        assertEquals(
                List.of(PoolItem.keyOf(txHash(1))),
                DurableBlobPool.open(dir, 4, ServerMetrics.NONE).itemKeys());
    }
}
