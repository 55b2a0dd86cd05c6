package io.hexstream.codec.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeededTrialsTest {

    @Test
    void sameSeedDrawsTheSameTrials() {
        List<Long> first = new ArrayList<>();
        List<Long> second = new ArrayList<>();
        SeededTrials.run(7, 5, (random, trial) -> first.add(random.nextLong()));
        SeededTrials.run(7, 5, (random, trial) -> second.add(random.nextLong()));
        assertEquals(first, second);
        assertEquals(5, first.stream().distinct().count());
    }

    @Test
    void failureNamesSeedAndTrial() {
        AssertionError cause = new AssertionError("expected: <1> but was: <2>");
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> SeededTrials.run(42, 10, (random, trial) -> {
                    if (trial == 3) {
                        throw cause;
                    }
                }));
        assertEquals("seed 42, trial 3 of 10: expected: <1> but was: <2>", e.getMessage());
        assertSame(cause, e.getCause());
    }

    @Test
    void lengthsStayInRange() {
        SeededTrials.run(1, 2_000, (random, trial) -> {
            int n = SeededTrials.length(random, 70_000);
            assertTrue(n >= 0 && n <= 70_000, "length " + n);
        });
    }
}
