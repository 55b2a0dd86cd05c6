package io.hexstream.codec.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A poll with a deadline, for a state the test can only observe (a counter, a metric, a socket table) and has no event
 * to wait on: checks every {@value #INTERVAL_MILLIS} ms until the state holds, failing with a message once the deadline
 * has passed.
 */
public final class Poll {
    /** The interval between two checks, in milliseconds. */
    public static final long INTERVAL_MILLIS = 10;

    private Poll() {}

    /** Returns once {@code done} is true; fails with {@code what} if it is still false after {@code timeout}. */
    public static void until(BooleanSupplier done, Duration timeout, String what) throws InterruptedException {
        if (!within(done, timeout)) {
            throw new AssertionError(what + ": not within " + timeout.toMillis() + " ms");
        }
    }

    /** Whether {@code done} became true within {@code timeout}. */
    public static boolean within(BooleanSupplier done, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(INTERVAL_MILLIS); // the poll's interval: nothing to wait on but the next check
        }
        return true;
    }
}
