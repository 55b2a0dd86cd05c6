package io.hexstream.server.testing;

import io.hexstream.server.http.EngineServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

/** The server's I/O threads in this JVM, as the heap tests measure them. */
public final class IoThreads {
    private IoThreads() {}

    /**
     * Heap bytes allocated so far by every I/O thread ({@link EngineServer#IO_THREADS}) of every server in this JVM
     * (JDK per-thread allocation counters).
     */
    public static long allocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(EngineServer.IO_THREADS)) {
                total += threads.getThreadAllocatedBytes(info.getThreadId());
            }
        }
        return total;
    }
}
