package io.hexstream.server;

import static io.hexstream.server.testing.EngineClient.errorReply;
import static io.hexstream.server.testing.EngineClient.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.VersionedHash;
import io.hexstream.codec.testing.LeakDetectionExtension;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import io.hexstream.server.testing.ServerSockets;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code engine_getBlobsV4} over a real socket: the forks that serve it, what it answers for missing blobs, every
 * refused request with its code and message, and a client hanging up mid-response. (The cells and proofs themselves are
 * checked against c-kzg in {@code engine.GetBlobsV4Test}.)
 */
class GetBlobsV4ServerTest {
    private static final String UNKNOWN = "0x01" + "ee".repeat(31);
    private static final String ALL =
            CellFixtures.bitarray(IntStream.range(0, 128).toArray());
    private static EngineServerFixture osaka;
    private static EngineServerFixture amsterdam;

    @BeforeAll
    static void start() {
        osaka = EngineServerFixture.start(Fork.OSAKA);
        amsterdam = EngineServerFixture.start(Fork.AMSTERDAM);
    }

    @AfterAll
    static void stop() {
        osaka.close();
        amsterdam.close();
    }

    private static String params(List<?> hashes, String bitarray) {
        return "[[" + hashes.stream().map(h -> "\"" + h + "\"").collect(Collectors.joining(",")) + "]," + bitarray
                + "]";
    }

    private static String reply(EngineServerFixture server, String body) {
        HttpResponse<byte[]> response = server.post(body);
        assertEquals(200, response.statusCode());
        return new String(response.body(), US_ASCII);
    }

    @Test
    void servedUnderOsakaAndAmsterdamWithNullOnlyWhereMissing() {
        for (EngineServerFixture server : List.of(osaka, amsterdam)) {
            List<VersionedHash> hashes = server.hashes();
            String bitarray = "\"" + CellFixtures.bitarray(0, 9, 63) + "\"";
            JsonNode result = server.call(request(
                            1, "engine_getBlobsV4", params(List.of(hashes.get(0), UNKNOWN, hashes.get(1)), bitarray)))
                    .get("result");
            assertEquals(3, result.size());
            assertTrue(result.get(1).isNull(), result.get(1).toString());
            for (int i : new int[] {0, 2}) {
                assertEquals(3, result.get(i).get("blob_cells").size());
                assertEquals(3, result.get(i).get("proofs").size());
                byte[] blob = server.server().pool().get(hashes.get(i / 2)).blob();
                assertEquals(
                        io.hexstream.codec.Hex.encodeToString(blob, 9 * 2048, 2048, true),
                        result.get(i).get("blob_cells").get(1).asText());
            }
            assertEquals(
                    "[null,null]",
                    server.call(request(2, "engine_getBlobsV4", params(List.of(UNKNOWN, UNKNOWN), "\"" + ALL + "\"")))
                            .get("result")
                            .toString());
        }
    }

    @Test
    void exchangeCapabilitiesListsV2V3AndV4UnderOsakaAndAmsterdam() {
        for (EngineServerFixture server : List.of(osaka, amsterdam)) {
            assertEquals(
                    "[\"engine_getBlobsV2\",\"engine_getBlobsV3\",\"engine_getBlobsV4\"]",
                    server.call(request(3, "engine_exchangeCapabilities", "[[]]"))
                            .get("result")
                            .toString());
        }
    }

    @Test
    void pragueDoesNotServeIt() {
        try (EngineServerFixture prague = EngineServerFixture.start(Fork.PRAGUE)) {
            assertEquals(
                    errorReply(4, -38005, "Unsupported fork: serving prague"),
                    reply(prague, request(4, "engine_getBlobsV4", params(List.of(UNKNOWN), "\"" + ALL + "\""))));
        }
    }

    @Test
    void theBitarrayMustBeSixteenBytesOfData() {
        String notSixteen = "Invalid params: indices_bitarray is not 16 bytes of DATA: ";
        assertEquals(
                errorReply(5, -32602, notSixteen + "expected 16 bytes (34 characters with 0x), got 32 characters"),
                reply(
                        amsterdam,
                        request(5, "engine_getBlobsV4", params(List.of(UNKNOWN), "\"0x" + "ff".repeat(15) + "\""))));
        assertEquals(
                errorReply(6, -32602, notSixteen + "expected 16 bytes (34 characters with 0x), got 36 characters"),
                reply(
                        amsterdam,
                        request(6, "engine_getBlobsV4", params(List.of(UNKNOWN), "\"0x" + "ff".repeat(17) + "\""))));
        assertEquals(
                errorReply(7, -32602, notSixteen + "invalid hex character 'g' at index 33"),
                reply(
                        amsterdam,
                        request(7, "engine_getBlobsV4", params(List.of(UNKNOWN), "\"0x" + "ff".repeat(15) + "fg\""))));
        assertEquals(
                errorReply(8, -32602, notSixteen + "expected '0' of the 0x prefix at index 0, found 'f'"),
                reply(
                        amsterdam,
                        request(8, "engine_getBlobsV4", params(List.of(UNKNOWN), "\"" + "ff".repeat(16) + "\""))));
    }

    @Test
    void theParamsMustBeHashesThenTheBitarray() {
        String shape = "Invalid params: expected two params, an array of versioned hashes and indices_bitarray";
        assertEquals(
                errorReply(9, -32602, shape + "; got 1"),
                reply(amsterdam, request(9, "engine_getBlobsV4", "[[\"" + UNKNOWN + "\"]]")));
        assertEquals(
                errorReply(10, -32602, shape + "; got 3"),
                reply(
                        amsterdam,
                        request(10, "engine_getBlobsV4", "[[\"" + UNKNOWN + "\"],\"" + ALL + "\",\"" + ALL + "\"]")));
        assertEquals(
                errorReply(11, -32602, shape + "; param 2 is not a string"),
                reply(amsterdam, request(11, "engine_getBlobsV4", params(List.of(UNKNOWN), "12"))));
        assertEquals(
                errorReply(12, -32602, shape + "; param 2 is not a string"),
                reply(amsterdam, request(12, "engine_getBlobsV4", params(List.of(UNKNOWN), "[\"" + ALL + "\"]"))));
        assertEquals(
                errorReply(13, -32602, shape + "; param 1 is not an array of strings"),
                reply(amsterdam, request(13, "engine_getBlobsV4", "[\"" + UNKNOWN + "\",\"" + ALL + "\"]")));
        assertEquals(
                errorReply(
                        14,
                        -32602,
                        "Invalid params: versioned hash 1: expected 32 bytes (66 characters with 0x), got 64"
                                + " characters"),
                reply(
                        amsterdam,
                        request(
                                14,
                                "engine_getBlobsV4",
                                params(List.of(UNKNOWN, UNKNOWN.substring(0, 64)), "\"" + ALL + "\""))));
    }

    /** As for V1 to V3: the shape, the count and the fork come before the bitarray and the hashes. */
    @Test
    void countAndForkComeBeforeTheBitarrayAndTheHashes() {
        List<String> tooMany = java.util.Collections.nCopies(129, "0xzz");
        assertEquals(
                errorReply(15, -38004, "Too large request: more than 128 versioned hashes"),
                reply(amsterdam, request(15, "engine_getBlobsV4", params(tooMany, "\"0x\""))));
        assertEquals(
                128,
                amsterdam
                        .call(request(
                                16,
                                "engine_getBlobsV4",
                                params(amsterdam.cycledHashes(128), "\"" + CellFixtures.bitarray(5) + "\"")))
                        .get("result")
                        .size());
    }

    /** A client hanging up inside a 128 × 128-cell response (68.7 MB) leaks nothing and the server answers on. */
    @Test
    void aClientHangingUpMidResponseLeaksNothing() throws Exception {
        String json = request(17, "engine_getBlobsV4", params(amsterdam.cycledHashes(128), "\"" + ALL + "\""));
        Set<Integer> hungUp = new HashSet<>();
        for (boolean reset : new boolean[] {false, true}) {
            HttpConnection connection = HttpConnection.open(amsterdam.port());
            hungUp.add(connection.socket().getLocalPort());
            try {
                connection.send(HttpConnection.post(amsterdam.token(), json));
                HttpConnection.Head head = connection.readHead();
                assertEquals(200, head.status());
                assertTrue(head.contentLength() > 17_000_000L, "Content-Length " + head.contentLength());
                connection.discard(3 << 20);
            } finally {
                if (reset) {
                    connection.abort();
                } else {
                    connection.close();
                }
            }
        }
        assertEquals(0, ServerSockets.awaitClosed(amsterdam.port(), hungUp, Duration.ofSeconds(30)));
        assertEquals(List.of(), LeakDetectionExtension.collectReports());
        assertEquals(
                128,
                amsterdam
                        .call(request(18, "engine_getBlobsV4", params(amsterdam.cycledHashes(128), "\"" + ALL + "\"")))
                        .get("result")
                        .size());
    }
}
