package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.Latencies;
import io.hexstream.server.testing.PoolBodies;
import io.hexstream.server.testing.ReliabilitySizes;
import io.hexstream.server.testing.ServerProcess;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sixteen keep-alive clients ask for 1 to 128 blobs by getBlobsV2 or V3, at random, for a minute (five at full size),
 * of a server in its own JVM held to {@code -Xmx256m -XX:MaxDirectMemorySize=256m}. Every response is checked by length
 * and SHA-256 against the body built from the pool's bytes ({@link PoolBodies}); each client gets exactly one response
 * per request, all on the one connection it opened (none may fail, none may break), and the server's log shows no leak
 * and no error. Prints responses per second and the 99th percentile of the time to the last byte.
 */
@Tag("full") // the reliability suite: -Pfull
class SustainedLoadTest {
    private static final int CLIENTS = 16;
    private static final int MAX_BLOBS = 128;
    private static final long SEED = 0x10AD_2026L;
    /** In V3 requests every eighth hash is one the pool does not have: a {@code null} in the answer. */
    private static final String UNKNOWN = "0x01" + "ee".repeat(31);
    /** Bytes of one BlobAndProofV2 object, and the reply's frame {@code {"jsonrpc":"2.0","id":1,"result":[…]}}. */
    private static final long ENTRY = 275_096;

    private static final long FRAME = 34 + 2;
    /** A response lost or stuck this long is an error, counted, not a test that hangs. */
    private static final int RESPONSE_TIMEOUT_MS = 30_000;

    /** A request shape: method version and blob count, its JSON text and the body it must be answered with. */
    record Shape(String version, int blobs, String json, PoolBodies.Expected expected) {}

    /** What one client saw: requests sent, responses read whole, and of those the ones that were not exact. */
    record Outcome(
            Latencies latencies,
            long bytes,
            int requests,
            int responses,
            int failed,
            int errors,
            String firstProblem) {}

    @Test
    void sixteenKeepAliveClientsGetEveryResponseExact(@TempDir Path dir) throws Exception {
        List<VersionedHash> pool = EngineServerFixture.copySharedPool(dir.resolve("data"));
        List<Shape> shapes = shapes(pool, PoolBodies.entries(dir.resolve("data"), pool));
        try (ServerProcess server = ServerProcess.start(
                dir.resolve("data"),
                dir.resolve("server.log"),
                List.of("-Xmx256m", "-XX:MaxDirectMemorySize=256m", "--add-modules", "jdk.incubator.vector"))) {
            long started = System.nanoTime();
            long ends = started + ReliabilitySizes.load().toNanos();
            List<Outcome> outcomes = new ArrayList<>();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<Outcome>> running = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    long seed = SEED + c;
                    running.add(clients.submit(() -> load(server, shapes, new Random(seed), ends)));
                }
                for (Future<Outcome> outcome : running) {
                    outcomes.add(outcome.get());
                }
            } finally {
                clients.shutdownNow();
            }
            double seconds = (System.nanoTime() - started) / 1e9;

            Latencies all = new Latencies();
            long bytes = 0;
            int requests = 0;
            int responses = 0;
            int failed = 0;
            int errors = 0;
            String firstProblem = null;
            for (Outcome outcome : outcomes) {
                all.addAll(outcome.latencies());
                bytes += outcome.bytes();
                requests += outcome.requests();
                responses += outcome.responses();
                failed += outcome.failed();
                errors += outcome.errors();
                firstProblem = firstProblem != null ? firstProblem : outcome.firstProblem();
            }
            String log = server.log();
            Measurements.report(
                    "sustained load (%s): %d clients for %.0f s, %d requests, %d responses (%.1f/s, %.2f GB/s),"
                            + " time to last byte p50 %.1f ms, p99 %.1f ms; %d failed responses, %d errors;"
                            + " server peak RSS %.0f MiB; leak reports in its log: %d%n",
                    ReliabilitySizes.label(),
                    CLIENTS,
                    seconds,
                    requests,
                    responses,
                    responses / seconds,
                    bytes / seconds / 1e9,
                    all.median() / 1e6,
                    all.percentile(99) / 1e6,
                    failed,
                    errors,
                    server.peakResidentBytes() / 1048576.0,
                    log.lines().filter(l -> l.contains("LEAK")).count());
            assertEquals(0, failed, firstProblem);
            assertEquals(0, errors, firstProblem);
            for (int c = 0; c < CLIENTS; c++) {
                Outcome outcome = outcomes.get(c);
                assertTrue(outcome.requests() > 0, "client " + c + " sent nothing");
                assertEquals(outcome.requests(), outcome.responses(), "client " + c + ": a response per request");
                assertEquals(outcome.responses(), outcome.latencies().count(), "client " + c);
            }
            assertEquals(requests, all.count());
            assertTrue(seconds >= ReliabilitySizes.load().toSeconds(), "the load lasted " + seconds + " s");
            assertFalse(log.contains("LEAK"), log);
            assertFalse(log.contains("ERROR") || log.contains("Exception"), log);
        }
    }

    /**
     * Every shape and the body it must be answered with, built from the pool's {@code entries} (of {@code pool}'s
     * hashes, in order), its length checked against the arithmetic of the format.
     */
    private static List<Shape> shapes(List<VersionedHash> pool, List<BlobEntry> entries) {
        List<Shape> shapes = new ArrayList<>();
        for (String version : List.of("V2", "V3")) {
            List<Object> hashes = new ArrayList<>(MAX_BLOBS);
            List<BlobEntry> answered = new ArrayList<>(MAX_BLOBS);
            for (int i = 0; i < MAX_BLOBS; i++) {
                boolean unknown = version.equals("V3") && i % 8 == 7;
                hashes.add(unknown ? UNKNOWN : pool.get(i % pool.size()));
                answered.add(unknown ? null : entries.get(i % pool.size()));
            }
            List<PoolBodies.Expected> bodies = PoolBodies.getBlobsV2Prefixes(1, answered);
            for (int n = 1; n <= MAX_BLOBS; n++) {
                String json = request(1, "engine_getBlobs" + version, hashParams(hashes.subList(0, n)));
                long missing = version.equals("V3") ? n / 8 : 0;
                long length = FRAME + (n - missing) * ENTRY + missing * "null".length() + (n - 1);
                assertEquals(length, bodies.get(n - 1).length(), version + " of " + n + " blobs");
                shapes.add(new Shape(version, n, json, bodies.get(n - 1)));
            }
        }
        return shapes;
    }

    /** A connection on which a response that does not come within {@link #RESPONSE_TIMEOUT_MS} is an error. */
    private static HttpConnection open(ServerProcess server) throws IOException {
        HttpConnection connection = HttpConnection.open(server.port());
        connection.socket().setSoTimeout(RESPONSE_TIMEOUT_MS);
        return connection;
    }

    /** One client: random shapes on one keep-alive connection until {@code ends}, reconnecting after an error. */
    private static Outcome load(ServerProcess server, List<Shape> shapes, Random random, long ends) throws IOException {
        Latencies latencies = new Latencies();
        long bytes = 0;
        int requests = 0;
        int responses = 0;
        int failed = 0;
        int errors = 0;
        String firstProblem = null;
        HttpConnection connection = open(server);
        try {
            while (System.nanoTime() < ends) {
                Shape shape = shapes.get(random.nextInt(shapes.size()));
                byte[] request = HttpConnection.post(server.client().token(), shape.json());
                try {
                    long sent = System.nanoTime();
                    requests++;
                    connection.send(request);
                    HttpConnection.Digested response = connection.readDigested();
                    latencies.add(System.nanoTime() - sent);
                    responses++;
                    bytes += response.length();
                    if (response.head().status() != 200
                            || response.length() != shape.expected().length()
                            || !Arrays.equals(
                                    response.sha256(), shape.expected().sha256())) {
                        failed++;
                        firstProblem = firstProblem != null
                                ? firstProblem
                                : shape.version() + " of " + shape.blobs() + " blobs: HTTP "
                                        + response.head().status() + ", " + response.length() + " bytes";
                    }
                } catch (IOException e) {
                    errors++;
                    firstProblem =
                            firstProblem != null ? firstProblem : shape.version() + " of " + shape.blobs() + ": " + e;
                    connection.close();
                    connection = open(server);
                }
            }
        } finally {
            connection.close();
        }
        return new Outcome(latencies, bytes, requests, responses, failed, errors, firstProblem);
    }
}
