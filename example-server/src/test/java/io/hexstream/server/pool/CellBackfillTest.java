package io.hexstream.server.pool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Poll;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.testing.Hxb2Files;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code HXB2} files loaded, then given their extension cells in the background: served as they are until then, one
 * item per task, each file rewritten as {@code HXB3}, the entry swapped; nothing recomputed after a restart; an item
 * evicted meanwhile stays evicted. The cells here are a stand-in computation (the real one,
 * {@code Kzg::extensionCells}, is checked in {@code KzgCellsTest} and {@code StoreUpgradeTest}), counted.
 */
class CellBackfillTest {
    @TempDir
    Path dir;

    private final AtomicInteger computed = new AtomicInteger();
    /** Cells made from the blob's first byte, so that each blob's are its own. */
    private final UnaryOperator<byte[]> cells = blob -> {
        computed.incrementAndGet();
        byte[] extension = new byte[BlobSizes.EXTENSION_CELLS_SIZE];
        Arrays.fill(extension, (byte) (blob[0] + 1));
        return extension;
    };

    /**
     * Runs what it is given when the test says, one task at a time; refuses tasks as a full bounded queue does
     * ({@link #refuse}), and all of them once shut down.
     */
    private static final class StepExecutor extends AbstractExecutorService {
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final AtomicInteger refusals = new AtomicInteger();
        private volatile boolean shutdown;

        /** Refuses the next {@code n} tasks. */
        void refuse(int n) {
            refusals.set(n);
        }

        @Override
        public void execute(Runnable task) {
            if (shutdown || refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new RejectedExecutionException("full");
            }
            tasks.add(task);
        }

        /** Runs the oldest task; false if there was none. */
        boolean runOne() {
            Runnable task = tasks.poll();
            if (task != null) {
                task.run();
            }
            return task != null;
        }

        int queued() {
            return tasks.size();
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.copyOf(tasks);
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }

    /**
     * A blob (first byte {@code n}) with a distinct commitment, a blob proof and cell proofs, without extension cells.
     */
    private static BlobEntry entry(int n) {
        byte[] blob = new byte[BlobSizes.BLOB_SIZE];
        blob[0] = (byte) n;
        byte[] commitment = new byte[BlobSizes.COMMITMENT_SIZE];
        commitment[0] = (byte) n;
        return new BlobEntry(blob, commitment, new byte[BlobSizes.PROOF_SIZE], new byte[BlobSizes.CELL_PROOFS_SIZE]);
    }

    private static byte[] txHash(int n) {
        byte[] hash = new byte[BlobSizes.TRANSACTION_HASH_SIZE];
        hash[0] = (byte) n;
        return hash;
    }

    private List<Path> files() throws Exception {
        try (Stream<Path> listing = Files.list(dir.resolve("blobs"))) {
            return listing.sorted().toList();
        }
    }

    private List<String> formats() throws Exception {
        return files().stream().map(Hxb2Files::format).toList();
    }

    /** Two generated blobs and a transaction of three, as HXB2 files. */
    private List<PoolItem> writeHxb2Pool() {
        List<PoolItem> items = List.of(
                PoolItem.generated(entry(1)),
                PoolItem.generated(entry(2)),
                PoolItem.transaction(txHash(9), List.of(entry(3), entry(4), entry(5))));
        for (int i = 0; i < items.size(); i++) {
            Hxb2Files.write(dir, i + 1, items.get(i));
        }
        return items;
    }

    private static void assertCellsOf(BlobEntry entry) {
        byte[] expected = new byte[BlobSizes.EXTENSION_CELLS_SIZE];
        Arrays.fill(expected, (byte) (entry.blob()[0] + 1));
        assertArrayEquals(expected, entry.extensionCells());
    }

    @Test
    void hxb2ItemsAreServedAtOnceThenGainTheirCellsOneItemATaskAndTheirFilesBecomeHxb3() throws Exception {
        List<PoolItem> items = writeHxb2Pool();
        List<Path> files = files();
        DurableBlobPool pool = DurableBlobPool.open(dir, 16, ServerMetrics.NONE);
        List<VersionedHash> hashes = pool.hashes();
        assertEquals(5, hashes.size());
        for (VersionedHash hash : hashes) {
            BlobEntry entry = pool.get(hash);
            assertNull(entry.extensionCells(), "loaded without cells");
            assertTrue(entry.blobProof() != null && entry.cellProofs() != null, "and served by V1 to V3 as it is");
        }
        assertEquals(items.stream().map(PoolItem::key).toList(), pool.itemsWithoutExtensionCells());

        StepExecutor executor = new StepExecutor();
        CellBackfill.start(pool, executor, cells);
        assertEquals(1, executor.queued(), "one item at a time");
        assertEquals(0, computed.get(), "nothing computed on the starting thread");

        assertTrue(executor.runOne());
        assertEquals(1, computed.get());
        assertEquals(List.of("HXB3", "HXB2", "HXB2"), formats());
        assertCellsOf(pool.get(hashes.get(0)));
        assertNull(pool.get(hashes.get(1)).extensionCells());
        assertEquals(1, executor.queued(), "the next item queued after it");

        assertTrue(executor.runOne());
        assertTrue(executor.runOne());
        assertFalse(executor.runOne(), "done");
        assertEquals(5, computed.get(), "each blob once");
        assertEquals(List.of("HXB3", "HXB3", "HXB3"), formats());
        assertEquals(files, files(), "rewritten in place: the same names, in the same order, no temporary file");
        for (VersionedHash hash : hashes) {
            assertCellsOf(pool.get(hash));
        }
        assertEquals(List.of(), pool.itemsWithoutExtensionCells());
        assertEquals(hashes, pool.hashes());

        DurableBlobPool reopened = DurableBlobPool.open(dir, 16, ServerMetrics.NONE);
        assertEquals(List.of(), reopened.itemsWithoutExtensionCells(), "HXB3 files load with their cells");
        CellBackfill.start(reopened, executor, cells);
        assertEquals(0, executor.queued(), "nothing to recompute");
        for (VersionedHash hash : hashes) {
            assertCellsOf(reopened.get(hash));
        }
        assertEquals(5, computed.get());
    }

    @Test
    void aFullQueueDelaysTheNextItemAndAShutDownExecutorEndsTheWork() throws Exception {
        writeHxb2Pool();
        DurableBlobPool pool = DurableBlobPool.open(dir, 16, ServerMetrics.NONE);
        StepExecutor executor = new StepExecutor();
        executor.refuse(2);
        CellBackfill.start(pool, executor, cells);
        assertEquals(0, executor.queued(), "refused: queued again later");
        Poll.within(() -> executor.queued() != 0, Duration.ofSeconds(10));
        assertEquals(1, executor.queued(), "queued once the queue had room (after two retries)");
        assertTrue(executor.runOne());
        assertEquals(2, pool.itemsWithoutExtensionCells().size());

        executor.shutdownNow();
        assertTrue(executor.runOne(), "the task queued before the shutdown");
        // No event marks a retry that does not happen: three retry intervals pass (a slow executor's time).
        Thread.sleep(3 * CellBackfill.RETRY_MILLIS);
        assertEquals(0, executor.queued(), "nothing queued after the shutdown");
        assertEquals(1, pool.itemsWithoutExtensionCells().size(), "left for the next start");
    }

    @Test
    void anItemEvictedBeforeItsTurnStaysEvictedAndItsFileIsNotRewritten() throws Exception {
        writeHxb2Pool();
        DurableBlobPool pool = DurableBlobPool.open(dir, 5, ServerMetrics.NONE);
        StepExecutor executor = new StepExecutor();
        CellBackfill.start(pool, executor, cells);
        VersionedHash first = entry(1).versionedHash(); // the oldest item's blob
        assertTrue(pool.add(PoolItem.generated(entry(6).withExtensionCells(new byte[BlobSizes.EXTENSION_CELLS_SIZE]))));
        assertFalse(pool.itemKeys().contains(first.toString()), "the oldest is evicted");

        assertTrue(executor.runOne()); // its turn: skipped
        assertEquals(0, computed.get(), "nothing computed for an evicted item");
        assertNull(pool.get(first), "not resurrected");
        assertEquals(List.of("HXB2", "HXB2", "HXB3"), formats(), "its file stays deleted");
        while (executor.runOne()) {
            // the others
        }
        assertEquals(4, computed.get());
        assertEquals(List.of("HXB3", "HXB3", "HXB3"), formats());
        assertEquals(5, pool.size());
    }

    @Test
    void anItemEvictedWhileItsCellsAreComputedIsNotResurrected() throws Exception {
        writeHxb2Pool();
        DurableBlobPool pool = DurableBlobPool.open(dir, 5, ServerMetrics.NONE);
        String oldest = pool.itemKeys().get(0);
        boolean completed = pool.completeExtensionCells(oldest, blob -> {
            try { // the eviction comes while the cells are being computed
                assertTrue(pool.add(
                        PoolItem.generated(entry(6).withExtensionCells(new byte[BlobSizes.EXTENSION_CELLS_SIZE]))));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
            return cells.apply(blob);
        });
        assertFalse(completed);
        assertFalse(pool.itemKeys().contains(oldest));
        assertNull(pool.get(entry(1).versionedHash()), "not resurrected");
        assertEquals(List.of("HXB2", "HXB2", "HXB3"), formats(), "the evicted file is not written again");
    }
}
