package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobStoreTest {

    static BlobEntry entry(Random random, boolean blobProof, boolean cellProofs) {
        byte[] blob = new byte[BlobSizes.BLOB_SIZE];
        byte[] commitment = new byte[48];
        random.nextBytes(blob);
        random.nextBytes(commitment);
        byte[] proof = blobProof ? new byte[48] : null;
        byte[] cells = cellProofs ? new byte[BlobSizes.CELL_PROOFS_SIZE] : null;
        if (proof != null) {
            random.nextBytes(proof);
        }
        if (cells != null) {
            random.nextBytes(cells);
        }
        return new BlobEntry(blob, commitment, proof, cells);
    }

    static byte[] txHash(int n) {
        byte[] hash = new byte[32];
        hash[31] = (byte) n;
        return hash;
    }

    private static List<PoolItem> items(BlobStore store) throws Exception {
        return store.loadAll().stream().map(BlobStore.Stored::item).toList();
    }

    private static List<Path> files(BlobStore store) throws Exception {
        try (Stream<Path> listing = Files.list(store.directory())) {
            return listing.sorted().toList();
        }
    }

    private static void assertSameEntries(List<BlobEntry> expected, List<BlobEntry> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i).blob(), actual.get(i).blob());
            assertArrayEquals(expected.get(i).commitment(), actual.get(i).commitment());
            assertArrayEquals(expected.get(i).blobProof(), actual.get(i).blobProof());
            assertArrayEquals(expected.get(i).cellProofs(), actual.get(i).cellProofs());
        }
    }

    @Test
    void itemsComeBackInOrderByteForByte(@TempDir Path dir) throws Exception {
        Random random = new Random(1);
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        List<PoolItem> saved = List.of(
                PoolItem.transaction(txHash(1), List.of(entry(random, true, false), entry(random, true, false))),
                PoolItem.generated(entry(random, false, true)),
                PoolItem.generated(entry(random, true, true)),
                PoolItem.transaction(txHash(2), List.of()),
                PoolItem.transaction(txHash(3), List.of(entry(random, false, true))));
        for (PoolItem item : saved) {
            store.save(item);
        }

        List<PoolItem> loaded = items(new BlobStore(dir, ServerMetrics.NONE));
        assertEquals(saved.size(), loaded.size());
        for (int i = 0; i < saved.size(); i++) {
            assertEquals(saved.get(i).key(), loaded.get(i).key());
            assertArrayEquals(saved.get(i).transactionHash(), loaded.get(i).transactionHash());
            assertSameEntries(saved.get(i).entries(), loaded.get(i).entries());
        }
        assertNull(loaded.get(1).entries().get(0).blobProof());
        assertEquals("000000000001-" + saved.get(0).key() + ".blob", files(store).get(0).getFileName().toString());
    }

    @Test
    void corruptTornAndUnfinishedFilesAreSkipped(@TempDir Path dir) throws Exception {
        Random random = new Random(2);
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        for (int i = 0; i < 3; i++) {
            store.save(PoolItem.transaction(txHash(i), List.of(entry(random, false, true))));
        }
        List<Path> files = files(store);
        byte[] flipped = Files.readAllBytes(files.get(0));
        flipped[1000] ^= 0x10;
        Files.write(files.get(0), flipped);
        byte[] torn = Files.readAllBytes(files.get(2));
        Files.write(files.get(2), java.util.Arrays.copyOf(torn, torn.length / 2));
        Path unfinished = Files.write(store.directory().resolve("000000000009-0x00.blob.tmp"), torn);
        Files.writeString(store.directory().resolve("stray.blob"), "not ours");

        List<PoolItem> loaded = items(new BlobStore(dir, ServerMetrics.NONE));
        assertEquals(1, loaded.size());
        assertArrayEquals(txHash(1), loaded.get(0).transactionHash());
        assertArrayEquals(Files.readAllBytes(files.get(1)), BlobStore.encode(loaded.get(0)));
        assertFalse(Files.exists(unfinished));
    }

    @Test
    void deleteRemovesTheFile(@TempDir Path dir) throws Exception {
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        PoolItem generated = PoolItem.generated(entry(new Random(3), true, false));
        PoolItem transaction = PoolItem.transaction(txHash(4), List.of(entry(new Random(4), true, false)));
        Path generatedFile = store.save(generated);
        Path transactionFile = store.save(transaction);
        store.delete(generatedFile);
        store.delete(transactionFile);
        store.delete(transactionFile); // gone already: nothing to do
        assertEquals(List.of(), items(new BlobStore(dir, ServerMetrics.NONE)));
        assertEquals(List.of(), files(store));
    }

    @Test
    void newFilesFollowTheHighestSequenceOnDisk(@TempDir Path dir) throws Exception {
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        store.save(PoolItem.transaction(txHash(5), List.of()));
        store.save(PoolItem.transaction(txHash(6), List.of()));
        BlobStore reopened = new BlobStore(dir, ServerMetrics.NONE);
        reopened.loadAll();
        reopened.save(PoolItem.transaction(txHash(7), List.of()));
        assertEquals("000000000003-" + PoolItem.keyOf(txHash(7)) + ".blob", files(store).get(2).getFileName().toString());
    }
}
