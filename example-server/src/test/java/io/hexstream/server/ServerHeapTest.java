package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.IoThreads;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

/** Answering a worst-case getBlobsV2 builds no String and no full-size array on the server. */
class ServerHeapTest {
    /** {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2). */
    private static final int BODY_BYTES = 34 + 128 * 275_096 + 127 + 2;

    @Test
    void a128BlobGetBlobsV2AllocatesUnder157KiBOnTheServer() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA, "--hex-cache-mib", "0")) {
            long allocated = allocatedByOne128BlobGetBlobsV2(server);
            Measurements.report(
                    "one 128-blob getBlobsV2, encoded: server threads allocated " + allocated + " bytes of heap");
            // Measured 76 KB (JDK 17, epoll): the bound is under twice that.
            assertTrue(allocated < 160_000, "server threads allocated " + allocated + " bytes");
        }
    }

    @Test
    void a128BlobGetBlobsV2FromTheHexCacheAllocatesUnder79KiBOnTheServer() {
        // The cache's buffers are made as the pool loads: under paranoid tracking each would record a
        // stack trace at every slice taken of it, so they are made with tracking off too.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        EngineServerFixture started;
        try {
            started = EngineServerFixture.start(Fork.OSAKA);
        } finally {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        try (EngineServerFixture server = started) {
            assertEquals(
                    EngineServerFixture.GENERATED, server.server().hexCache().size(), "every blob cached");
            long allocated = allocatedByOne128BlobGetBlobsV2(server);
            Measurements.report("one 128-blob getBlobsV2, from the hex cache: server threads allocated " + allocated
                    + " bytes of heap");
            // Measured 37 KB (JDK 17, epoll): parsing 128 hashes, a segment and a slice per cached element;
            // the bound is under twice that (issue #26's target is 48 KiB).
            assertTrue(allocated < 80_000, "server threads allocated " + allocated + " bytes");
        }
    }

    /** Heap the I/O threads allocate for one 128-blob getBlobsV2, after warming up. */
    private static long allocatedByOne128BlobGetBlobsV2(EngineServerFixture server) {
        String body = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
        // Paranoid leak tracking records a stack trace at every buffer access: heap of the test
        // harness, not of the server. It is off while measuring; other tests cover these paths.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        try {
            for (int warm = 0; warm < 8; warm++) { // JIT (the SIMD kernel allocates until C2 has it), pools
                server.post(body);
            }
            long before = IoThreads.allocatedBytes();
            var response = server.post(body);
            long allocated = IoThreads.allocatedBytes() - before;
            assertEquals(200, response.statusCode());
            assertEquals(BODY_BYTES, response.body().length);
            return allocated;
        } finally {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
    }
}
