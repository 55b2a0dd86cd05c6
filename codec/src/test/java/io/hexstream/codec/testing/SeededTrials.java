package io.hexstream.codec.testing;

import java.util.SplittableRandom;

/**
 * Randomised trials that run the same every time: trial {@code i} of seed {@code s} draws from the {@code i}-th
 * generator split off {@code new SplittableRandom(s)}, so a failure names its seed and trial and a rerun replays it
 * exactly. A failing trial is rethrown as an {@link AssertionError} whose message starts with {@code seed S, trial N}
 * and whose cause is the original failure.
 */
public final class SeededTrials {

    /** One trial: its own generator and its number (for messages). */
    @FunctionalInterface
    public interface Trial {
        void run(SplittableRandom random, int trial) throws Exception;
    }

    private SeededTrials() {}

    /** Runs {@code trials} trials from {@code seed}, stopping at the first failure. */
    public static void run(long seed, int trials, Trial body) {
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int trial = 0; trial < trials; trial++) {
            SplittableRandom random = seeds.split();
            try {
                body.run(random, trial);
            } catch (Exception | AssertionError e) {
                throw new AssertionError(
                        String.format("seed %d, trial %d of %d: %s", seed, trial, trials, e.getMessage()), e);
            }
        }
    }

    /**
     * A length in {@code [0, max]}: a quarter of draws at most 130 (kernel tails and lane edges), {@code max} itself
     * one in 64.
     */
    public static int length(SplittableRandom random, int max) {
        int pick = random.nextInt(64);
        if (pick == 0) {
            return max;
        }
        return pick < 16 ? random.nextInt(Math.min(max, 130) + 1) : random.nextInt(max + 1);
    }

    /** Random bytes of {@link #length(SplittableRandom, int)}. */
    public static byte[] bytes(SplittableRandom random, int maxLength) {
        byte[] data = new byte[length(random, maxLength)];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) random.nextInt(256);
        }
        return data;
    }
}
