package io.hexstream.codec.testing;

import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's leak detector, keeping every report so that {@link LeakDetectionExtension} can fail the test that leaked.
 * Installed for every test JVM by the surefire configuration ({@code -Dio.netty.customResourceLeakDetector}).
 */
public final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    private static final List<String> REPORTS = new ArrayList<>();

    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        this(resourceType, samplingInterval);
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        // Not logged here: the failing test's message carries the report, so a deliberate leak in
        // LeakDetectionExtensionTest does not print a LEAK line that looks like a real one.
        record("LEAK: " + resourceType + records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        record("LEAK: " + resourceType + " (untraced)");
    }

    private static void record(String report) {
        synchronized (REPORTS) {
            REPORTS.add(report);
        }
    }

    /** Every report since the last call, oldest first; the list is emptied. */
    public static List<String> drainReports() {
        synchronized (REPORTS) {
            List<String> drained = new ArrayList<>(REPORTS);
            REPORTS.clear();
            return drained;
        }
    }

    /** True when this detector is the one Netty installed (the surefire property is set). */
    public static boolean installed() {
        return RecordingLeakDetector.class.getName().equals(System.getProperty("io.netty.customResourceLeakDetector"));
    }
}
