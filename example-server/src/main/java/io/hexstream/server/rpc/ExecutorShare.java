package io.hexstream.server.rpc;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded share of another executor: at most {@code tasks} of the tasks given to it at once are in that executor,
 * queued or running; more are refused ({@link RejectedExecutionException}) as a full queue refuses them, and so is a
 * task the executor itself refuses. Given a share of at most half of a
 * {@link io.hexstream.server.exec.BoundedExecutor}'s queue, one source of tasks (a port) leaves the other half to the
 * others. Thread-safe.
 */
public final class ExecutorShare implements Executor {
    private final Executor executor;
    private final int tasks;
    /** Tasks given to {@link #executor} and not finished yet. */
    private final AtomicInteger inside = new AtomicInteger();

    /** At most {@code tasks} (at least 1) of the tasks given to it at once in {@code executor}. */
    public ExecutorShare(Executor executor, int tasks) {
        if (tasks < 1) {
            throw new IllegalArgumentException("an executor share of " + tasks + " tasks, at least 1 is needed");
        }
        this.executor = executor;
        this.tasks = tasks;
    }

    @Override
    public void execute(Runnable task) {
        if (inside.incrementAndGet() > tasks) {
            inside.decrementAndGet();
            throw new RejectedExecutionException("the share of " + tasks + " tasks is full");
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    inside.decrementAndGet();
                }
            });
        } catch (RuntimeException e) { // RejectedExecutionException included: the task never runs
            inside.decrementAndGet();
            throw e;
        }
    }
}
