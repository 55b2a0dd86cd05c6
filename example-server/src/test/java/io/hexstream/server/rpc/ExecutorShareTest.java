package io.hexstream.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** {@link ExecutorShare}: at most its tasks inside the executor at once, each place freed when its task ends. */
class ExecutorShareTest {
    @Test
    void atMostItsTasksAreInsideAndAPlaceIsFreedWhenOneEnds() {
        List<Runnable> queued = new ArrayList<>();
        ExecutorShare share = new ExecutorShare(queued::add, 2);
        List<String> ran = new ArrayList<>();
        share.execute(() -> ran.add("a"));
        share.execute(() -> ran.add("b"));
        assertThrows(RejectedExecutionException.class, () -> share.execute(() -> ran.add("c")));
        assertEquals(2, queued.size(), "the refused task never reached the executor");
        queued.get(0).run();
        share.execute(() -> ran.add("d"));
        assertThrows(RejectedExecutionException.class, () -> share.execute(() -> ran.add("e")));
        queued.get(1).run();
        queued.get(2).run();
        assertEquals(List.of("a", "b", "d"), ran);
    }

    @Test
    void aTaskTheExecutorRefusesTakesNoPlace() {
        Executor full = task -> {
            throw new RejectedExecutionException("full");
        };
        ExecutorShare share = new ExecutorShare(full, 1);
        for (int i = 0; i < 3; i++) {
            assertThrows(RejectedExecutionException.class, () -> share.execute(() -> {}));
        }
        List<Runnable> queued = new ArrayList<>();
        ExecutorShare failing = new ExecutorShare(queued::add, 1);
        failing.execute(() -> {
            throw new IllegalStateException("a failing task");
        });
        assertThrows(IllegalStateException.class, () -> queued.get(0).run());
        failing.execute(() -> {}); // its place was freed all the same
        assertEquals(2, queued.size());
    }
}
