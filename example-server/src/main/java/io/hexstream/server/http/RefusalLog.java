package io.hexstream.server.http;

import io.hexstream.server.text.PeerText;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs refused requests and connections at INFO with the reason, at most one line a second: the others are counted and
 * the count is logged with the next line, so that a flood of bad tokens cannot flood the log. Thread-safe; one per
 * server.
 */
public final class RefusalLog {
    /** The longest {@code what} logged, characters: a reason with a path and a header field in it. */
    static final int MAX_WHAT_CHARS = 4 * PeerText.MAX_CHARS;

    private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LongSupplier nanoTime;
    private final Consumer<String> out;
    private final AtomicLong nextLine;
    private final AtomicInteger suppressed = new AtomicInteger();

    /** A log writing to this class's logger at INFO. */
    public RefusalLog() {
        this(System::nanoTime, LOG::info);
    }

    /** A log on {@code nanoTime}'s clock writing its lines to {@code out} (tests). */
    RefusalLog(LongSupplier nanoTime, Consumer<String> out) {
        this.nanoTime = nanoTime;
        this.out = out;
        this.nextLine = new AtomicLong(nanoTime.getAsLong());
    }

    /**
     * Logs that a request or connection from {@code remote} was refused: {@code what}, e.g. {@code "401 for POST /: no
     * Authorization header"}; or counts it, if a line went out less than a second ago. What a client wrote into
     * {@code what} is escaped there ({@link PeerText}), and {@code what} once more here as a whole.
     */
    public void refused(SocketAddress remote, String what) {
        long now = nanoTime.getAsLong();
        long due = nextLine.get();
        if (now - due < 0 || !nextLine.compareAndSet(due, now + INTERVAL_NANOS)) {
            suppressed.incrementAndGet();
            return;
        }
        int more = suppressed.getAndSet(0);
        out.accept("refused " + remote + ": " + PeerText.escape(what, MAX_WHAT_CHARS)
                + (more == 0 ? "" : " (and " + more + " more refusals not logged)"));
    }
}
