package io.hexstream.jmh.e2e;

import io.hexstream.server.http.EngineServer;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The process's direct memory (Netty's own counter, for buffers it allocates without a JDK cleaner,
 * plus the JDK's direct buffer pool), sampled every millisecond for its peak; and the heap the server's
 * I/O threads allocate, and the CPU time its threads run.
 */
final class MemoryProbe implements AutoCloseable {
    private final BufferPoolMXBean jdkDirect = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
            .stream().filter(pool -> pool.getName().equals("direct")).findFirst().orElseThrow();
    private final AtomicLong peak = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;

    MemoryProbe() {
        sampler = new Thread(() -> {
            while (running) {
                peak.accumulateAndGet(directNow(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "memory-probe");
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * Heap bytes allocated so far by every I/O thread ({@link EngineServer#IO_THREADS}) of the server in
     * this JVM (JDK per-thread allocation counters).
     */
    static long ioThreadsAllocatedBytes() {
        return allocatedBytes(name -> name.startsWith(EngineServer.IO_THREADS));
    }

    /** Heap bytes allocated so far by every live thread of this JVM whose name {@code counted} accepts. */
    static long allocatedBytes(Predicate<String> counted) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && counted.test(info.getThreadName())) {
                total += threads.getThreadAllocatedBytes(info.getThreadId());
            }
        }
        return total;
    }

    /**
     * CPU nanoseconds every live thread of this JVM has run so far, but this probe's sampler and the
     * command loop ({@code main}): the server's I/O, request and ingest threads, and a peer's own (the
     * JDK's per-thread CPU clocks; the JVM's GC and JIT threads are not Java threads and are not counted).
     */
    static long serverThreadsCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && !info.getThreadName().equals("memory-probe") && !info.getThreadName().equals("main")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    long directNow() {
        return Math.max(0, PlatformDependent.usedDirectMemory()) + jdkDirect.getMemoryUsed();
    }

    /** Starts a new peak from the current level. */
    void resetPeak() {
        peak.set(directNow());
    }

    long peakDirect() {
        return peak.get();
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }
}
