package io.hexstream.server.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.server.pool.BlobEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobStoreTest {

    static BlobEntry entry(Random random, boolean blobProof, boolean cellProofs) {
        byte[] blob = new byte[BlobEntry.BLOB_SIZE];
        byte[] commitment = new byte[48];
        random.nextBytes(blob);
        random.nextBytes(commitment);
        byte[] proof = blobProof ? new byte[48] : null;
        byte[] cells = cellProofs ? new byte[BlobEntry.CELL_PROOFS_SIZE] : null;
        if (proof != null) {
            random.nextBytes(proof);
        }
        if (cells != null) {
            random.nextBytes(cells);
        }
        return new BlobEntry(blob, commitment, proof, cells);
    }

    @Test
    void entriesComeBackInOrderByteForByte(@TempDir Path dir) throws Exception {
        Random random = new Random(1);
        BlobStore store = new BlobStore(dir);
        List<BlobEntry> saved = List.of(entry(random, true, false), entry(random, false, true), entry(random, true, true));
        store.save(BlobStore.Origin.TRANSACTION, saved.get(0));
        store.save(BlobStore.Origin.GENERATED, saved.get(1));
        store.save(BlobStore.Origin.GENERATED, saved.get(2));

        List<BlobStore.Stored> loaded = new BlobStore(dir).loadAll();
        assertEquals(3, loaded.size());
        assertEquals(BlobStore.Origin.TRANSACTION, loaded.get(0).origin());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(saved.get(i).blob(), loaded.get(i).entry().blob());
            assertArrayEquals(saved.get(i).commitment(), loaded.get(i).entry().commitment());
            assertArrayEquals(saved.get(i).blobProof(), loaded.get(i).entry().blobProof());
            assertArrayEquals(saved.get(i).cellProofs(), loaded.get(i).entry().cellProofs());
        }
        assertNull(loaded.get(1).entry().blobProof());
    }

    @Test
    void corruptAndTornFilesAreSkipped(@TempDir Path dir) throws Exception {
        Random random = new Random(2);
        BlobStore store = new BlobStore(dir);
        for (int i = 0; i < 3; i++) {
            store.save(BlobStore.Origin.GENERATED, entry(random, false, true));
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(store.directory())) {
            files = listing.sorted().toList();
        }
        byte[] flipped = Files.readAllBytes(files.get(0));
        flipped[1000] ^= 0x10;
        Files.write(files.get(0), flipped);
        byte[] torn = Files.readAllBytes(files.get(2));
        Files.write(files.get(2), java.util.Arrays.copyOf(torn, torn.length / 2));

        List<BlobStore.Stored> loaded = new BlobStore(dir).loadAll();
        assertEquals(1, loaded.size());
        assertEquals(Files.readAllBytes(files.get(1)).length, BlobStore.encode(BlobStore.Origin.GENERATED, loaded.get(0).entry()).length);
    }

    @Test
    void deleteRemovesTheFile(@TempDir Path dir) throws Exception {
        BlobStore store = new BlobStore(dir);
        BlobEntry entry = entry(new Random(3), true, false);
        store.save(BlobStore.Origin.TRANSACTION, entry);
        store.delete(entry.versionedHash());
        assertEquals(List.of(), new BlobStore(dir).loadAll());
    }
}
