package io.hexstream.server.testing;

import java.util.Arrays;

/** Durations in nanoseconds, recorded one by one (one thread at a time), and their percentiles. */
public final class Latencies {
    private long[] nanos = new long[1024];
    private int count;

    public void add(long durationNanos) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = durationNanos;
    }

    /** Adds all of {@code other}'s durations. */
    public void addAll(Latencies other) {
        for (int i = 0; i < other.count; i++) {
            add(other.nanos[i]);
        }
    }

    public int count() {
        return count;
    }

    /**
     * The {@code p}-th percentile ({@code 0 < p <= 100}) by the nearest-rank method: the smallest duration that at
     * least {@code p} % of all are at or below, nanoseconds.
     */
    public long percentile(double p) {
        if (count == 0) {
            throw new IllegalStateException("no durations recorded");
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * count);
        return sorted[Math.max(rank, 1) - 1];
    }

    /** The median, nanoseconds. */
    public long median() {
        return percentile(50);
    }
}
