package io.hexstream.server.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Memory of a server running in this JVM, as the reliability tests measure it. Direct memory is what the channels'
 * allocator ({@link ByteBufAllocator#DEFAULT}, adaptive in Netty 4.2) holds from the system: its metric counts whole
 * chunks, so every buffer in flight or queued for a socket is inside that figure, plus what the allocator keeps cached.
 * Netty's own counter ({@link PlatformDependent#usedDirectMemory()}, every direct allocation Netty makes without a JDK
 * cleaner) is taken too when it counts, and the larger of the two is the figure. Test clients use plain sockets, so
 * neither counts anything of theirs.
 */
public final class ServerMemory {
    private ServerMemory() {}

    /** Bytes of direct memory held by Netty's allocator in this JVM. */
    public static long direct() {
        long allocator = ((ByteBufAllocatorMetricProvider) ByteBufAllocator.DEFAULT)
                .metric()
                .usedDirectMemory();
        return Math.max(allocator, PlatformDependent.usedDirectMemory());
    }

    /**
     * Bytes of live objects on the heap: the total of a class histogram ({@code jcmd GC.class_histogram}, which
     * collects first), after a full collection that lets reference processing finish. Not the heap's "used" figure,
     * which after a collection still counts up to a megabyte of the collector's own slack (regions, their remainders)
     * and swings with it.
     */
    public static long heapAfterGc() {
        System.gc();
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer()
                    .invoke(
                            new ObjectName("com.sun.management:type=DiagnosticCommand"),
                            "gcClassHistogram",
                            new Object[] {new String[0]},
                            new String[] {String[].class.getName()});
            // the last line: "Total <instances> <bytes>"
            String[] total = histogram
                    .strip()
                    .substring(histogram.strip().lastIndexOf('\n') + 1)
                    .trim()
                    .split("\\s+");
            return Long.parseLong(total[2]);
        } catch (JMException e) {
            throw new IllegalStateException("no class histogram: " + e.getMessage(), e);
        }
    }

    /** Samples {@link #direct()} every millisecond from construction to {@link #close()}; keeps the peak. */
    public static final class Peak implements AutoCloseable {
        private final AtomicLong peak = new AtomicLong(direct());
        private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "direct-memory-peak");
            thread.setDaemon(true);
            return thread;
        });

        public Peak() {
            sampler.scheduleAtFixedRate(() -> peak.accumulateAndGet(direct(), Math::max), 0, 1, TimeUnit.MILLISECONDS);
        }

        /** The highest figure seen so far, bytes. */
        public long bytes() {
            return peak.accumulateAndGet(direct(), Math::max);
        }

        @Override
        public void close() throws InterruptedException {
            sampler.shutdownNow();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
