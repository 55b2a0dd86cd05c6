package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.IoThreads;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

/** Answering a worst-case getBlobsV2 builds no String and no full-size array on the server. */
class ServerHeapTest {

    @Test
    void a128BlobGetBlobsV2AllocatesUnderTwoMebibytesOnTheServer() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
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
                // {"jsonrpc":"2.0","id":1,"result":[ (34) + 128 entries of 275,096 bytes + 127 commas + ]} (2)
                assertEquals(34 + 128 * 275_096 + 127 + 2, response.body().length);
                System.out.println("one 128-blob getBlobsV2: server threads allocated " + allocated + " bytes of heap");
                assertTrue(allocated < 2 << 20, "server threads allocated " + allocated + " bytes");
            } finally {
                ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
            }
        }
    }
}
