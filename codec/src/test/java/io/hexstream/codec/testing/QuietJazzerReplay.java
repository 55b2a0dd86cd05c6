package io.hexstream.codec.testing;

import com.code_intelligence.jazzer.utils.Log;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Keeps Jazzer's {@code INFO:} lines (about 60 per JVM: hooks loaded, classes instrumented) out of the default test
 * run, where the fuzz tests only replay their seeds; its warnings, errors and findings still print. When fuzzing
 * ({@code JAZZER_FUZZ} set) nothing changes: the fuzz profiles send all of it to files under
 * {@code target/fuzz-reports}. Registered for every test JVM through {@code META-INF/services} (the test-jar carries it
 * to example-server's tests).
 */
public final class QuietJazzerReplay implements TestExecutionListener {

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        if (System.getenv("JAZZER_FUZZ") != null) {
            return;
        }
        try {
            Class.forName(
                    "com.code_intelligence.jazzer.utils.Log", false, getClass().getClassLoader());
        } catch (ClassNotFoundException e) {
            return; // no Jazzer on this class path
        }
        Log.fixOutErr(System.out, new PrintStream(new DropInfoLines(System.err), true, StandardCharsets.UTF_8));
    }

    /** Forwards whole lines to {@code target}, except those that start with {@code "INFO: "}. */
    private static final class DropInfoLines extends OutputStream {
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        DropInfoLines(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (!text.startsWith("INFO: ")) {
                    target.print(text);
                    target.flush();
                }
            }
        }
    }
}
