package io.hexstream.jmh.e2e;

import io.hexstream.server.http.EngineServer;
import io.hexstream.server.ipc.IpcServer;
import io.netty.util.internal.PlatformDependent;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The process's direct memory, each byte counted once (Netty's own counter,
 * {@link PlatformDependent#usedDirectMemory()}, and the JDK's direct buffer pool, which overlap or not by how Netty
 * allocates: see {@link #directNow()}), sampled every millisecond for its peak; and the heap the server's I/O threads
 * (and scrape thread) allocate, and the CPU time its threads run.
 */
final class MemoryProbe implements AutoCloseable {
    private final BufferPoolMXBean jdkDirect = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElseThrow();
    private final AtomicLong peak = new AtomicLong();
    private final Thread sampler;
    private volatile boolean running = true;

    MemoryProbe() {
        sampler = new Thread(
                () -> {
                    while (running) {
                        peak.accumulateAndGet(directNow(), Math::max);
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                },
                "memory-probe");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** The server's scrape thread ({@code --metrics-port}), which allocates what a scrape writes. */
    private static final String SCRAPE_THREAD = "hexstream-metrics";

    /**
     * Heap bytes allocated so far by every I/O thread ({@link EngineServer#IO_THREADS}, {@link IpcServer#IO_THREAD})
     * and the scrape thread of the server in this JVM (JDK per-thread allocation counters).
     */
    static long ioThreadsAllocatedBytes() {
        return allocatedBytes(name -> name.startsWith(EngineServer.IO_THREADS)
                || name.startsWith(IpcServer.IO_THREAD)
                || name.startsWith(SCRAPE_THREAD));
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
     * CPU nanoseconds every live thread of this JVM has run so far, but this probe's sampler and the command loop
     * ({@code main}): the server's I/O, request and ingest threads, and a peer's own (the JDK's per-thread CPU clocks;
     * the JVM's GC and JIT threads are not Java threads and are not counted).
     */
    static long serverThreadsCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null
                    && !info.getThreadName().equals("memory-probe")
                    && !info.getThreadName().equals("main")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    /**
     * Whether the bytes in Netty's direct-memory counter are also in the JDK's direct buffer pool. Netty 4.2 counts
     * every buffer it allocates through {@code PlatformDependent.allocateDirect} (unpooled, pooled and adaptive chunks
     * alike) whatever backs it, and picks the backing in this order: with {@code sun.misc.Unsafe} and reflective access
     * to {@code DirectByteBuffer}'s no-cleaner constructor ({@link PlatformDependent#useDirectBufferNoCleaner()}),
     * {@code Unsafe.allocateMemory}, which the JDK does not count; with Unsafe but without that access (JDK 17 as run
     * here, no {@code --add-opens}), a JDK {@code ByteBuffer.allocateDirect} (its {@code CleanerJava9}), which the JDK
     * counts too, so the JDK's pool then holds all of Netty's counter; without Unsafe (JDK 25, where Netty turns it off
     * by default), an FFM {@code Arena} segment or {@code malloc}, which the JDK does not count, and for an unpooled
     * buffer a plain {@code ByteBuffer.allocateDirect} that Netty does not count. So the two overlap exactly in the
     * middle case, and hold disjoint bytes otherwise.
     */
    private static final boolean NETTY_COUNTED_IN_JDK_POOL =
            PlatformDependent.hasUnsafe() && !PlatformDependent.useDirectBufferNoCleaner();

    /**
     * Direct bytes in use now: the JDK's direct pool alone when it includes Netty's counter (the larger of the two,
     * which is the JDK's), else their sum; Netty's counter is -1 when disabled ({@code -Dio.netty.maxDirectMemory=0}).
     */
    long directNow() {
        long netty = Math.max(0, PlatformDependent.usedDirectMemory());
        long jdk = jdkDirect.getMemoryUsed();
        return NETTY_COUNTED_IN_JDK_POOL ? Math.max(netty, jdk) : netty + jdk;
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
