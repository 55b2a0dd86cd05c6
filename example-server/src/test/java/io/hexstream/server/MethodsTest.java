package io.hexstream.server;

import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV1;
import static io.hexstream.server.testing.BlobAssertions.assertBlobAndProofV2;
import static io.hexstream.server.testing.BlobAssertions.fieldNames;
import static io.hexstream.server.testing.EngineServerFixture.hashParams;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.VersionedHash;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.HttpConnection;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each Engine API method over a real socket, on real-KZG blobs (Osaka unless said otherwise). */
class MethodsTest {
    private static final String UNKNOWN = "0x02" + "ee".repeat(31);
    private static EngineServerFixture osaka;
    private static EngineServerFixture prague;

    @BeforeAll
    static void start() {
        osaka = EngineServerFixture.start(Fork.OSAKA);
        prague = EngineServerFixture.start(Fork.PRAGUE);
    }

    @AfterAll
    static void stop() {
        osaka.close();
        prague.close();
    }

    @Test
    void getBlobsV2ReturnsEveryBlobWithItsCellProofs() {
        List<VersionedHash> hashes = osaka.hashes();
        JsonNode reply = osaka.call(request(1, "engine_getBlobsV2", hashParams(hashes)));
        assertEquals(List.of("jsonrpc", "id", "result"), fieldNames(reply));
        assertEquals("2.0", reply.get("jsonrpc").asText());
        assertEquals(1, reply.get("id").asInt());
        assertEquals(hashes.size(), reply.get("result").size());
        for (int i = 0; i < hashes.size(); i++) {
            assertBlobAndProofV2(
                    osaka.server().pool().get(hashes.get(i)),
                    reply.get("result").get(i));
        }
    }

    @Test
    void getBlobsV2IsNullWhenAnyBlobIsMissing() {
        List<VersionedHash> hashes = osaka.hashes();
        JsonNode reply =
                osaka.call(request(2, "engine_getBlobsV2", hashParams(List.of(hashes.get(0), UNKNOWN, hashes.get(1)))));
        assertTrue(reply.get("result").isNull(), reply.toString());
    }

    @Test
    void getBlobsV3PutsNullOnlyWhereMissing() {
        List<VersionedHash> hashes = osaka.hashes();
        JsonNode reply =
                osaka.call(request(3, "engine_getBlobsV3", hashParams(List.of(hashes.get(0), UNKNOWN, hashes.get(1)))));
        JsonNode result = reply.get("result");
        assertEquals(3, result.size());
        assertBlobAndProofV2(osaka.server().pool().get(hashes.get(0)), result.get(0));
        assertTrue(result.get(1).isNull());
        assertBlobAndProofV2(osaka.server().pool().get(hashes.get(1)), result.get(2));
        JsonNode allMissing = osaka.call(request(4, "engine_getBlobsV3", hashParams(List.of(UNKNOWN, UNKNOWN))));
        assertEquals("[null,null]", allMissing.get("result").toString());
    }

    @Test
    void getBlobsV1UnderPragueGivesBlobAndProofOrNull() {
        List<VersionedHash> hashes = prague.hashes();
        JsonNode reply = prague.call(request(5, "engine_getBlobsV1", hashParams(List.of(hashes.get(2), UNKNOWN))));
        assertBlobAndProofV1(
                prague.server().pool().get(hashes.get(2)), reply.get("result").get(0));
        assertTrue(reply.get("result").get(1).isNull());
    }

    @Test
    void methodsOfTheOtherForkAreUnsupported() {
        String hashes = hashParams(List.of(UNKNOWN));
        assertEquals(
                -38005,
                osaka.call(request(6, "engine_getBlobsV1", hashes))
                        .at("/error/code")
                        .asInt());
        assertEquals(
                -38005,
                prague.call(request(6, "engine_getBlobsV2", hashes))
                        .at("/error/code")
                        .asInt());
        assertEquals(
                -38005,
                prague.call(request(6, "engine_getBlobsV3", hashes))
                        .at("/error/code")
                        .asInt());
        assertEquals(
                "Unsupported fork: serving prague",
                prague.call(request(6, "engine_getBlobsV2", hashes))
                        .at("/error/message")
                        .asText());
    }

    @Test
    void exchangeCapabilitiesListsTheMethodsServed() {
        assertEquals(
                "[\"engine_getBlobsV2\",\"engine_getBlobsV3\",\"engine_getBlobsV4\"]",
                osaka.call(request(
                                7, "engine_exchangeCapabilities", "[[\"engine_getBlobsV2\",\"engine_newPayloadV4\"]]"))
                        .get("result")
                        .toString());
        assertEquals(
                "[\"engine_getBlobsV1\"]",
                prague.call(request(7, "engine_exchangeCapabilities", "[[]]"))
                        .get("result")
                        .toString());
    }

    @Test
    void oneHundredTwentyEightHashesWorkAndOneMoreIsTooLarge() {
        List<VersionedHash> hashes = osaka.hashes();
        List<VersionedHash> many = new ArrayList<>(osaka.cycledHashes(128));
        JsonNode reply = osaka.call(request(8, "engine_getBlobsV2", hashParams(many)));
        assertEquals(128, reply.get("result").size());
        assertBlobAndProofV2(
                osaka.server().pool().get(hashes.get(127 % hashes.size())),
                reply.get("result").get(127));
        many.add(hashes.get(0));
        JsonNode tooMany = osaka.call(request(9, "engine_getBlobsV2", hashParams(many)));
        assertEquals(-38004, tooMany.at("/error/code").asInt());
        assertEquals(
                "Too large request: more than 128 versioned hashes",
                tooMany.at("/error/message").asText());
    }

    @Test
    void idsAreEchoedExactly() {
        String params = hashParams(List.of(UNKNOWN));
        // sent → echoed: numbers keep their text; a string keeps its value (escapes re-rendered)
        String[][] ids = {
            {"7", "7"},
            {"-1", "-1"},
            {"12345678901234567890123", "12345678901234567890123"},
            {"1.5e3", "1.5e3"},
            {"\"abc\"", "\"abc\""},
            {"\"a\\\"b\\u00e9\"", "\"a\\\"b\u00e9\""},
            {"null", "null"}
        };
        for (String[] id : ids) {
            String body = new String(
                    osaka.post(request(id[0], "engine_getBlobsV3", params)).body(), UTF_8);
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":" + id[1] + ",\"result\":[null]}", body);
        }
    }

    @Test
    void aBatchIsAnsweredAsOneArrayInOrderAndNotificationsGetNothing() {
        String hashes = hashParams(List.of(UNKNOWN));
        String batch = "[" + request("\"first\"", "engine_getBlobsV3", hashes) + ","
                + "{\"jsonrpc\":\"2.0\",\"method\":\"engine_getBlobsV3\",\"params\":" + hashes + "},"
                + request(2, "engine_exchangeCapabilities", "[[]]") + "]";
        assertEquals(
                "[{\"jsonrpc\":\"2.0\",\"id\":\"first\",\"result\":[null]},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[\"engine_getBlobsV2\",\"engine_getBlobsV3\""
                        + ",\"engine_getBlobsV4\"]}]",
                new String(osaka.post(batch).body(), US_ASCII));
        HttpResponse<byte[]> notification =
                osaka.post("{\"jsonrpc\":\"2.0\",\"method\":\"engine_getBlobsV3\",\"params\":" + hashes + "}");
        assertEquals(200, notification.statusCode());
        assertEquals(0, notification.body().length);
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        List<VersionedHash> hashes = osaka.hashes();
        String token = osaka.token();
        ByteArrayOutputStream pipelined = new ByteArrayOutputStream();
        for (int i = 0; i < 5; i++) {
            pipelined.writeBytes(HttpConnection.post(
                    token, request(i, "engine_getBlobsV2", hashParams(Collections.nCopies(i + 1, hashes.get(i))))));
        }
        try (HttpConnection connection = HttpConnection.open(osaka.port())) {
            connection.send(pipelined.toByteArray());
            for (int i = 0; i < 5; i++) {
                JsonNode reply = new ObjectMapper().readTree(connection.readBody(connection.readHead()));
                assertEquals(i, reply.get("id").asInt());
                assertEquals(i + 1, reply.get("result").size());
                assertBlobAndProofV2(
                        osaka.server().pool().get(hashes.get(i)),
                        reply.get("result").get(i));
            }
        }
    }
}
