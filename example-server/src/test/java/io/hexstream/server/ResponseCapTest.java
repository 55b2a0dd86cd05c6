package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.errorReply;
import static io.hexstream.server.testing.EngineClient.hashParams;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.testing.Measurements;
import io.hexstream.codec.testing.TestTier;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import java.security.MessageDigest;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

/**
 * Batches are bounded: a 2,000-call batch of 128-hash {@code engine_getBlobsV2} (about 70 GB of replies) with a raised
 * {@code --max-batch-size} gets the calls that fit in {@code --max-response-bytes} (256 MiB, exact lengths) and
 * {@code -32000} for every call after, and the server then serves as before; 3,000 requests at the default batch limit
 * get one {@code -32600}. By default the first runs smaller, 200 calls and a 40 MiB cap (one result fits); full size in
 * {@code -Pfull} ({@link TestTier}).
 */
class ResponseCapTest {
    private static final long CAP = TestTier.FULL ? 256L << 20 : 40L << 20;
    private static final int CALLS = TestTier.FULL ? 2_000 : 200;
    private static final String TOO_LARGE =
            "Server error: response too large: the replies to this HTTP request would pass " + CAP
                    + " bytes (--max-response-bytes)";

    @Test
    void aHugeBatchIsCutAtTheCapAndTheServerServesOn() throws Exception {
        try (EngineServerFixture server = EngineServerFixture.start(
                Fork.OSAKA,
                "--max-request-bytes",
                Integer.toString(32 << 20),
                "--max-batch-size",
                "4096",
                "--max-response-bytes",
                Long.toString(CAP))) {
            String params = hashParams(server.cycledHashes(128));
            String one = new String(
                    server.post(request(1, "engine_getBlobsV2", params)).body(), US_ASCII);
            String prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":";
            String result = one.substring(prefix.length(), one.length() - 1);
            StringJoiner batch = new StringJoiner(",", "[", "]");
            for (int id = 0; id < CALLS; id++) {
                batch.add(request(id, "engine_getBlobsV2", params));
            }
            // The expected digest before connecting: the server's idle and write timeouts run while the client
            // neither sends nor reads.
            MessageDigest expected = HttpConnection.sha256();
            expected.update((byte) '[');
            long total = 2;
            int results = 0;
            for (int id = 0; id < CALLS; id++) {
                String reply = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
                int separator = id == 0 ? 0 : 1;
                if (total + separator + reply.length() > CAP) {
                    reply = errorReply(id, -32000, TOO_LARGE);
                } else {
                    results++;
                }
                total += separator + reply.length();
                expected.update((id == 0 ? reply : "," + reply).getBytes(US_ASCII));
            }
            expected.update((byte) ']');
            assertEquals(TestTier.FULL ? 7 : 1, results, "35 MB each: 7 fit in 256 MiB, 1 in 40 MiB");

            try (HttpConnection connection = HttpConnection.open(server.port())) {
                connection.send(HttpConnection.post(server.token(), batch.toString()));
                HttpConnection.Digested reply = connection.readDigested();
                Measurements.report("response cap: a " + CALLS + "-call batch of 128 blobs each answered with "
                        + results
                        + " results and " + (CALLS - results) + " x -32000 in " + reply.length() + " bytes (cap " + CAP
                        + ")");
                assertEquals(200, reply.head().status());
                assertEquals(total, reply.length());
                assertArrayEquals(expected.digest(), reply.sha256());
                long errors = (CALLS - results)
                        * (long) (errorReply(1000, -32000, TOO_LARGE).length() + 1);
                assertTrue(reply.length() - errors <= CAP, "the results fit in the cap");

                connection.send(HttpConnection.post(server.token(), request(1, "engine_getBlobsV2", params)));
                HttpConnection.Head head = connection.readHead();
                assertEquals(one, new String(connection.readBody(head), US_ASCII), "and the server serves on");
            }
        }
    }

    @Test
    void aBatchOverTheDefaultLimitIsOneInvalidRequest() {
        try (EngineServerFixture server = EngineServerFixture.start(Fork.OSAKA)) {
            String params = hashParams(server.hashes().subList(0, 1));
            StringJoiner batch = new StringJoiner(",", "[", "]");
            for (int id = 0; id < 3_000; id++) {
                batch.add(request(id, "engine_getBlobsV2", params));
            }
            var response = server.post(batch.toString());
            assertEquals(200, response.statusCode());
            assertEquals(
                    errorReply("null", -32600, "Invalid Request: batch of more than 1024 requests (--max-batch-size)"),
                    new String(response.body(), US_ASCII));
        }
    }
}
