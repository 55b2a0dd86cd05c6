package io.hexstream.server.exec;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Executors for work that must not run on an event loop: a fixed number of threads, a bounded queue. */
public final class BoundedExecutor {
    private BoundedExecutor() {}

    /**
     * {@code threads} daemon threads named {@code <name>-*}, and a queue of {@code queue} tasks beyond which a task is
     * refused ({@link RejectedExecutionException}). Its owner shuts it down.
     */
    public static ThreadPoolExecutor create(String name, int threads, int queue) {
        if (threads < 1 || queue < 1) {
            throw new IllegalArgumentException(
                    name + ": threads " + threads + ", queue " + queue + ": each must be at least 1");
        }
        return new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queue),
                new DefaultThreadFactory(name, true));
    }
}
