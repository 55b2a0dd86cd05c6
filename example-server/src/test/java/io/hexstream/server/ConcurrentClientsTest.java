package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Sixteen clients at once, each asking for 128 blobs: every body complete and identical. */
class ConcurrentClientsTest {

    @Test
    void sixteenClientsGetIdenticalCompleteBodies() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            String body = request(1, "engine_getBlobsV2", hashParams(server.cycledHashes(128)));
            byte[] reference = server.post(body).body();
            assertEquals(34 + 128 * 275_096 + 127 + 2, reference.length);
            byte[] referenceDigest = MessageDigest.getInstance("SHA-256").digest(reference);

            ExecutorService clients = Executors.newFixedThreadPool(16);
            try {
                List<Future<HttpResponse<byte[]>>> responses = new ArrayList<>();
                for (int c = 0; c < 16; c++) {
                    responses.add(clients.submit(() -> server.post(body)));
                }
                for (Future<HttpResponse<byte[]>> response : responses) {
                    HttpResponse<byte[]> r = response.get();
                    assertEquals(200, r.statusCode());
                    assertEquals(reference.length, r.body().length);
                    assertArrayEquals(
                            referenceDigest,
                            MessageDigest.getInstance("SHA-256").digest(r.body()));
                }
            } finally {
                clients.shutdownNow();
            }
        }
    }
}
