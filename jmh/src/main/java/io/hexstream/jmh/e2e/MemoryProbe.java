package io.hexstream.jmh.e2e;

import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The process's direct memory (Netty's own counter, for buffers it allocates without a JDK cleaner,
 * plus the JDK's direct buffer pool), sampled every millisecond for its peak.
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
