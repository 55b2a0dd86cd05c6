package io.hexstream.codec.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leak check itself must be able to fail: a buffer dropped unreleased is reported. */
class LeakDetectionExtensionTest {

    @Test
    void anUnreleasedBufferIsReported() throws InterruptedException {
        assertTrue(LeakDetectionExtension.collectReports().isEmpty());
        leak();
        List<String> reports = LeakDetectionExtension.collectReports();
        assertEquals(1, reports.size(), reports.toString());
        assertTrue(reports.get(0).startsWith("LEAK: ByteBuf"), reports.get(0));
    }

    private static void leak() {
        ByteBufAllocator.DEFAULT.directBuffer(64).writeLong(1);
    }
}
