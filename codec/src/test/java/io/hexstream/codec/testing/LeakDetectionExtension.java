package io.hexstream.codec.testing;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails any test after which Netty reports a leaked buffer. Registered for every Jupiter test by auto-detection
 * ({@code META-INF/services}, enabled in the surefire configuration of the parent POM): no test names it. Leaks are
 * found when a tracked buffer has been collected and the detector next tracks an allocation, so after each test this
 * collects garbage and allocates a few times before reading the reports.
 */
public final class LeakDetectionExtension implements BeforeAllCallback, AfterEachCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        if (!RecordingLeakDetector.installed()
                || ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            fail("tests must run with -Dio.netty.leakDetection.level=paranoid and "
                    + "-Dio.netty.customResourceLeakDetector=" + RecordingLeakDetector.class.getName());
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        List<String> reports = collectReports();
        if (!reports.isEmpty()) {
            fail(reports.size() + " leaked buffer(s) reported after " + context.getDisplayName() + ":\n"
                    + String.join("\n", reports));
        }
    }

    /** Forces the leak detector to look at everything collected so far; returns and clears its reports. */
    public static List<String> collectReports() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            // The sentinel is enqueued once the collection's references have been handed to their queues.
            ReferenceQueue<Object> collected = new ReferenceQueue<>();
            WeakReference<Object> sentinel = new WeakReference<>(new Object(), collected);
            System.gc();
            collected.remove(1000);
            Reference.reachabilityFence(sentinel);
            ByteBufAllocator.DEFAULT.buffer(1).release();
            UnpooledByteBufAllocator.DEFAULT.directBuffer(1).release();
        }
        return RecordingLeakDetector.drainReports();
    }
}
