package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.ReliabilitySizes;
import io.hexstream.server.testing.ServerSockets;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two thousand clients (ten thousand at full size), sixteen at a time, each ask for 128 blobs (about 35 MB) and hang up
 * at a random point of the response: before its first byte, inside its head, inside its body, one byte before its end,
 * or right after it; half with a FIN, half with a reset. With paranoid leak detection no leak is reported, the server
 * closes every one of those connections, and then answers a normal request with the pool's bytes exactly.
 */
@Tag("full") // the reliability suite: -Pfull
class DisconnectStormTest {
    private static final int CONCURRENCY = 16;
    private static final long SEED = 0x5707_2026L;

    /** Where a client hangs up, in bytes of the response read (head and body). */
    enum Cut {
        BEFORE_HEAD,
        IN_HEAD,
        IN_BODY,
        ONE_BYTE_BEFORE_END,
        AFTER_LAST_BYTE;

        long bytesRead(Random random, int headSize, long total) {
            return switch (this) {
                case BEFORE_HEAD -> 0;
                case IN_HEAD -> 1 + random.nextInt(headSize - 1);
                case IN_BODY -> headSize + (long) (random.nextDouble() * (total - 1 - headSize));
                case ONE_BYTE_BEFORE_END -> total - 1;
                case AFTER_LAST_BYTE -> total;
            };
        }
    }

    /** One client's plan: where to hang up, and how. */
    record Client(Cut cut, long bytesRead, boolean reset) {}

    @Test
    void clientsHangingUpAnywhereInAResponseLeakNothing() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            List<VersionedHash> hashes = server.cycledHashes(128);
            String json = request(1, "engine_getBlobsV2", hashParams(hashes));
            PoolBodies.Expected expected =
                    PoolBodies.getBlobsV2(1, PoolBodies.entries(server.server().pool(), hashes));
            HttpConnection.Digested first;
            try (HttpConnection connection = HttpConnection.open(server.port())) {
                connection.send(HttpConnection.post(server.token(), json));
                first = connection.readDigested();
            }
            assertEquals(expected.length(), first.length());
            assertArrayEquals(expected.sha256(), first.sha256(), "the pool's bytes");
            int headSize = first.head().size();
            long total = headSize + expected.length();

            Random random = new Random(SEED);
            List<Client> clients = new ArrayList<>();
            Map<Cut, Integer> counts = new EnumMap<>(Cut.class);
            for (int i = 0; i < ReliabilitySizes.disconnects(); i++) {
                Cut cut = Cut.values()[random.nextInt(Cut.values().length)];
                clients.add(new Client(cut, cut.bytesRead(random, headSize, total), random.nextBoolean()));
                counts.merge(cut, 1, Integer::sum);
            }

            long started = System.nanoTime();
            long bytes = 0;
            ExecutorService pool = Executors.newFixedThreadPool(CONCURRENCY);
            try {
                List<Future<Long>> done = new ArrayList<>();
                for (Client client : clients) {
                    done.add(pool.submit(() -> hangUp(server, json, client)));
                }
                for (int i = 0; i < done.size(); i++) {
                    assertEquals(
                            clients.get(i).bytesRead(),
                            done.get(i).get(),
                            "bytes the server sent before client " + i + " (" + clients.get(i) + ") hung up");
                    bytes += done.get(i).get();
                }
            } finally {
                pool.shutdownNow();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            int open = ServerSockets.awaitAtMost(server.port(), 0, Duration.ofSeconds(30));
            List<String> leaks = LeakDetectionExtension.collectReports();
            Measurements.report(
                    "disconnect storm (%s): %d clients hung up %s, %.1f GB read in %.1f s; %d connections left"
                            + " open on the server, %d leak reports%n",
                    ReliabilitySizes.label(), clients.size(), counts, bytes / 1e9, seconds, open, leaks.size());
            assertEquals(0, open, "connections the server has not closed");
            assertEquals(List.of(), leaks);

            HttpResponse<byte[]> after = server.post(json);
            assertEquals(200, after.statusCode());
            assertEquals(expected.length(), after.body().length);
            assertArrayEquals(expected.sha256(), HttpConnection.sha256().digest(after.body()), "the pool's bytes");
            assertEquals(
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[\"engine_getBlobsV2\",\"engine_getBlobsV3\""
                            + ",\"engine_getBlobsV4\"]}",
                    new String(
                            server.post(request(2, "engine_exchangeCapabilities", "[[]]"))
                                    .body(),
                            java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    /** Sends the request, reads as far as {@code client} goes, hangs up; returns the bytes that came. */
    private static long hangUp(EngineServerFixture server, String json, Client client) throws Exception {
        HttpConnection connection = HttpConnection.open(server.port());
        try {
            connection.send(HttpConnection.post(server.token(), json));
            return connection.discard(client.bytesRead());
        } finally {
            if (client.reset()) {
                connection.abort();
            } else {
                connection.close();
            }
        }
    }
}
