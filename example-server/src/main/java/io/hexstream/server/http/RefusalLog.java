package io.hexstream.server.http;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs refused requests and connections at INFO with the reason, at most one line a second: the others
 * are counted and the count is logged with the next line, so that a flood of bad tokens cannot flood
 * the log. Thread-safe; one per server.
 */
public final class RefusalLog {
    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final AtomicLong nextLine = new AtomicLong(System.nanoTime());
    private final AtomicInteger suppressed = new AtomicInteger();

    /** Logs that a request or connection from {@code remote} was refused: {@code what}, e.g. {@code "401 for POST /: no Authorization header"}. */
    public void refused(SocketAddress remote, String what) {
        long now = System.nanoTime();
        long due = nextLine.get();
        if (now - due < 0 || !nextLine.compareAndSet(due, now + INTERVAL_NANOS)) {
            suppressed.incrementAndGet();
            return;
        }
        int more = suppressed.getAndSet(0);
        LOG.info("refused {}: {}{}", remote, what, more == 0 ? "" : " (and " + more + " more refusals in the last second or more)");
    }
}
