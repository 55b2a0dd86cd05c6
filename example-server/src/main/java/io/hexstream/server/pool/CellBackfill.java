package io.hexstream.server.pool;

import java.io.IOException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Computes, in the background, the extension cells of the items loaded without them (from {@code HXB2} files), one item
 * at a time on the bounded blocking-work executor: each task completes one item
 * ({@link DurableBlobPool#completeExtensionCells}: the cells, the file rewritten as {@code HXB3}, the pool entry
 * swapped), then queues the next, so transactions queued meanwhile are taken in between. The server answers V1 to V3
 * for those items all along. If the executor's queue is full, the next item waits {@value #RETRY_MILLIS} ms and is
 * queued again; once the executor is shut down, it stops (the items left get their cells at the next start).
 */
public final class CellBackfill {
    private static final Logger LOG = LoggerFactory.getLogger(CellBackfill.class);
    static final long RETRY_MILLIS = 100;

    private final DurableBlobPool pool;
    private final ExecutorService executor;
    private final UnaryOperator<byte[]> cells;
    private final Queue<String> pending;
    private final int total;
    private final AtomicInteger completed = new AtomicInteger();

    private CellBackfill(
            DurableBlobPool pool, ExecutorService executor, UnaryOperator<byte[]> cells, List<String> keys) {
        this.pool = pool;
        this.executor = executor;
        this.cells = cells;
        this.pending = new ConcurrentLinkedQueue<>(keys);
        this.total = keys.size();
    }

    /**
     * Starts giving every item of {@code pool} that lacks extension cells its cells, oldest first, on {@code executor};
     * returns at once.
     *
     * @param cells the extension cells (cells 64 to 127, 131,072 bytes) of a 131,072-byte blob:
     *     {@code Kzg::extensionCells}
     */
    public static void start(DurableBlobPool pool, ExecutorService executor, UnaryOperator<byte[]> cells) {
        List<String> keys = pool.itemsWithoutExtensionCells();
        if (keys.isEmpty()) {
            return;
        }
        LOG.info("computing the extension cells of {} stored items (HXB2 files) in the background", keys.size());
        new CellBackfill(pool, executor, cells, keys).queueNext();
    }

    private void queueNext() {
        if (pending.isEmpty()) {
            LOG.info(
                    "extension cells computed for {} of {} stored items, their files rewritten as HXB3",
                    completed.get(),
                    total);
            return;
        }
        try {
            executor.execute(this::completeNext);
        } catch (RejectedExecutionException e) {
            if (!executor.isShutdown()) {
                // queued again from the JDK's one delay thread: queueNext only hands the task over
                CompletableFuture.delayedExecutor(RETRY_MILLIS, TimeUnit.MILLISECONDS, Runnable::run)
                        .execute(this::queueNext);
            }
        }
    }

    private void completeNext() {
        String key = pending.poll();
        try {
            if (pool.completeExtensionCells(key, cells)) {
                completed.incrementAndGet();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not give item {} its extension cells: {}", key, e.toString());
        } finally {
            queueNext();
        }
    }
}
