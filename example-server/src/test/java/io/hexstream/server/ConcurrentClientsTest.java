package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.PoolBodies;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Sixteen clients at once, each asking for 128 blobs: every body complete, the pool's bytes exactly. */
class ConcurrentClientsTest {

    @Test
    void sixteenClientsGetIdenticalCompleteBodies() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            String body = request(1, "engine_getBlobsV2", hashParams(hashes));
            PoolBodies.Expected expected =
                    PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
            assertEquals(34 + 128 * 275_096 + 127 + 2, expected.length());

            ExecutorService clients = Executors.newFixedThreadPool(16);
            try {
                List<Future<HttpResponse<byte[]>>> responses = new ArrayList<>();
                for (int c = 0; c < 16; c++) {
                    responses.add(clients.submit(() -> server.post(body)));
                }
                for (Future<HttpResponse<byte[]>> response : responses) {
                    HttpResponse<byte[]> r = response.get();
                    assertEquals(200, r.statusCode());
                    assertEquals(expected.length(), r.body().length);
                    assertArrayEquals(expected.sha256(), HttpConnection.sha256().digest(r.body()));
                }
            } finally {
                clients.shutdownNow();
            }
        }
    }
}
