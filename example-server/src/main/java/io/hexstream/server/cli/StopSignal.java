package io.hexstream.server.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Ctrl-C (SIGINT) and SIGTERM as a request to stop, through a shutdown hook: the main thread sees the request
 * ({@link #getAsBoolean}, {@link #await}), stops the server and hands its exit code to {@link #exit}; the hook waits
 * for that code and ends the JVM with it. So a signalled stop exits 0, not 130 or 143, and nothing is closed twice or
 * from two threads at once.
 */
final class StopSignal implements BooleanSupplier {
    private static final StopSignal INSTANCE = new StopSignal();
    /**
     * How long the hook waits for the main thread's exit code (stopping takes up to 2 s a port, a transaction being
     * written, or a batch of generation); past it, or if the main thread ended without one, the JVM's own exit code
     * stands.
     */
    private static final long EXIT_TIMEOUT_SECONDS = 30;

    private final CountDownLatch requested = new CountDownLatch(1);
    private final CountDownLatch exited = new CountDownLatch(1);
    private volatile int exitCode;
    private volatile boolean installed;

    private StopSignal() {}

    /** The process's stop signal, listening from the first call on. */
    static synchronized StopSignal install() {
        if (!INSTANCE.installed) {
            Runtime.getRuntime().addShutdownHook(new Thread(INSTANCE::onShutdown, "hexstream-stop"));
            INSTANCE.installed = true;
        }
        return INSTANCE;
    }

    /** Whether a stop was requested. */
    @Override
    public boolean getAsBoolean() {
        return requested.getCount() == 0;
    }

    /** Blocks until a stop is requested. */
    void await() throws InterruptedException {
        requested.await();
    }

    /**
     * Ends the JVM with {@code code}, also when a signal has begun its shutdown already; first lets the launcher's
     * stderr filter copy the JVM's last lines ({@link LauncherStderr#drain}).
     */
    static void exit(int code) {
        LauncherStderr.drain();
        INSTANCE.exitCode = code;
        INSTANCE.exited.countDown();
        System.exit(code);
    }

    private void onShutdown() {
        requested.countDown();
        try {
            if (exited.await(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                Runtime.getRuntime().halt(exitCode);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
