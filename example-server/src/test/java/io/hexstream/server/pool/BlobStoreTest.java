package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.client.BlobSizes;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.Hxb2Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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

    /** {@link #entry} with random extension cells too. */
    static BlobEntry withCells(Random random, BlobEntry entry) {
        byte[] cells = new byte[BlobSizes.EXTENSION_CELLS_SIZE];
        random.nextBytes(cells);
        return entry.withExtensionCells(cells);
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
            assertArrayEquals(expected.get(i).extensionCells(), actual.get(i).extensionCells());
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
        assertEquals(
                "000000000001-" + saved.get(0).key() + ".blob",
                files(store).get(0).getFileName().toString());
    }

    @Test
    void extensionCellsAreStoredInHxb3AndHxb2FilesStillLoadWithoutThem(@TempDir Path dir) throws Exception {
        Random random = new Random(5);
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        PoolItem old = PoolItem.transaction(txHash(8), List.of(entry(random, true, false), entry(random, false, true)));
        Path hxb2 = Hxb2Files.write(dir, 1, old);
        PoolItem current = PoolItem.transaction(
                txHash(9),
                List.of(withCells(random, entry(random, true, true)), withCells(random, entry(random, false, true))));
        Path hxb3 = store.save(current);

        assertEquals("HXB2", Hxb2Files.format(hxb2));
        assertEquals("HXB3", Hxb2Files.format(hxb3));
        byte[] written = Files.readAllBytes(hxb3);
        assertEquals(4 + 1 + 32 + 2 + 2 * (1 + 131_072 + 48 + 6_144 + 131_072) + 48 + 4, written.length);
        assertEquals(0b111, written[4 + 1 + 32 + 2], "flags: blob proof, cell proofs, extension cells");
        List<PoolItem> loaded = items(new BlobStore(dir, ServerMetrics.NONE));
        assertEquals(
                List.of(old.key(), current.key()),
                loaded.stream().map(PoolItem::key).toList());
        assertSameEntries(old.entries(), loaded.get(0).entries());
        assertNull(loaded.get(0).entries().get(0).extensionCells());
        assertSameEntries(current.entries(), loaded.get(1).entries());
    }

    @Test
    void aRewriteReplacesTheFileWholeAndAnInterruptedOneLeavesTheOldFile(@TempDir Path dir) throws Exception {
        Random random = new Random(6);
        PoolItem old = PoolItem.generated(entry(random, true, true));
        Path file = Hxb2Files.write(dir, 1, old);
        PoolItem complete = PoolItem.generated(withCells(random, old.entries().get(0)));
        byte[] encoded = BlobStore.encode(complete);
        Path interrupted = Files.write(
                file.resolveSibling(file.getFileName() + ".tmp"),
                java.util.Arrays.copyOf(encoded, encoded.length / 3)); // the rewrite a crash cut short

        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        List<BlobStore.Stored> loaded = store.loadAll();
        assertFalse(Files.exists(interrupted), "the unfinished rewrite is removed");
        assertEquals(List.of(file), loaded.stream().map(BlobStore.Stored::file).toList());
        assertEquals("HXB2", Hxb2Files.format(file), "the old file is whole");
        assertNull(loaded.get(0).item().entries().get(0).extensionCells());

        store.rewrite(file, complete);
        assertEquals(List.of(file), files(store), "the same name, no temporary file left");
        assertEquals("HXB3", Hxb2Files.format(file));
        assertArrayEquals(encoded, Files.readAllBytes(file));
        assertSameEntries(
                complete.entries(),
                items(new BlobStore(dir, ServerMetrics.NONE)).get(0).entries());
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

    /**
     * A transaction through a port without JWT is stored with origin 2 and its sender, byte by byte as the README's
     * table says, and comes back with both; an Engine API one keeps origin 1 and no sender (the bytes as before).
     */
    @Test
    void anUnauthenticatedTransactionKeepsItsOriginAndSender(@TempDir Path dir) throws Exception {
        Random random = new Random(9);
        String sender = "0x" + "a1".repeat(19) + "0f";
        BlobEntry entry = entry(random, false, true);
        PoolItem open = PoolItem.unauthenticated(txHash(9), List.of(entry), sender);
        PoolItem engine = PoolItem.transaction(txHash(10), List.of(entry));
        BlobStore store = new BlobStore(dir, ServerMetrics.NONE);
        byte[] openBytes = Files.readAllBytes(store.save(open));
        byte[] engineBytes = Files.readAllBytes(store.save(engine));

        int blob = 1 + BlobSizes.BLOB_SIZE + 48 + BlobSizes.CELL_PROOFS_SIZE;
        assertEquals(4 + 1 + 32 + 20 + 2 + blob + 4, openBytes.length);
        assertEquals(4 + 1 + 32 + 2 + blob + 4, engineBytes.length);
        assertEquals("HXB3", new String(openBytes, 0, 4, StandardCharsets.US_ASCII));
        assertEquals(2, openBytes[4]);
        assertEquals(1, engineBytes[4]);
        assertArrayEquals(txHash(9), Arrays.copyOfRange(openBytes, 5, 37));
        assertArrayEquals(HexDecoder.decode(sender), Arrays.copyOfRange(openBytes, 37, 57));
        assertArrayEquals(new byte[] {0, 1}, Arrays.copyOfRange(openBytes, 57, 59));
        assertArrayEquals(
                Arrays.copyOfRange(engineBytes, 37, engineBytes.length - 4),
                Arrays.copyOfRange(openBytes, 57, openBytes.length - 4),
                "the same blob count and blob after the sender");

        List<PoolItem> loaded = items(new BlobStore(dir, ServerMetrics.NONE));
        assertEquals(Origin.UNAUTHENTICATED, loaded.get(0).origin());
        assertEquals(sender, loaded.get(0).sender());
        assertArrayEquals(txHash(9), loaded.get(0).transactionHash());
        assertSameEntries(List.of(entry), loaded.get(0).entries());
        assertEquals(Origin.AUTHENTICATED, loaded.get(1).origin());
        assertNull(loaded.get(1).sender());
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
        assertEquals(
                "000000000003-" + PoolItem.keyOf(txHash(7)) + ".blob",
                files(store).get(2).getFileName().toString());
    }
}
