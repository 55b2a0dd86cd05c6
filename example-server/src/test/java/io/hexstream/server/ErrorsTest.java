package io.hexstream.server;

import static io.hexstream.server.testing.EngineServerFixture.errorReply;
import static io.hexstream.server.testing.EngineServerFixture.request;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each JSON-RPC error with HTTP 200 and the spec's code, and the HTTP-level refusals. */
class ErrorsTest {
    private static final String HASH = "\"0x01" + "ab".repeat(31) + "\"";
    private static EngineServerFixture server;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String reply(String body) {
        HttpResponse<byte[]> response = server.post(body);
        assertEquals(200, response.statusCode());
        return new String(response.body(), US_ASCII);
    }

    @Test
    void parseError() {
        assertEquals(
                errorReply(
                        "null",
                        -32700,
                        "Parse error: Unexpected end-of-input within/between Object entries" + " at byte 8"),
                reply("{\"id\":1,"));
        assertEquals(-32700, code(reply("")));
        assertEquals(-32700, code(reply("[1,")));
        assertEquals(-32700, code(reply("{} {}")));
    }

    /** Found by fuzzing: a parser limit's error has no location, and the connection was closed unanswered. */
    @Test
    void parseErrorBeyondTheParsersLimits() {
        assertEquals(
                errorReply(
                        "null",
                        -32700,
                        "Parse error: Document nesting depth (1001) exceeds the maximum allowed"
                                + " (1000, from `StreamReadConstraints.getMaxNestingDepth()`)"),
                reply("[".repeat(1001)));
        assertEquals(
                errorReply(
                        "null",
                        -32700,
                        "Parse error: Number value length (1001) exceeds the maximum allowed"
                                + " (1000, from `StreamReadConstraints.getMaxNumberLength()`)"),
                reply("1".repeat(1001)));
    }

    @Test
    void invalidRequest() {
        assertEquals(errorReply("null", -32600, "Invalid Request: empty batch"), reply("[]"));
        assertEquals(
                errorReply("1", -32600, "Invalid Request: method is missing"), reply("{\"jsonrpc\":\"2.0\",\"id\":1}"));
        assertEquals(
                errorReply("2", -32600, "Invalid Request: jsonrpc must be \\\"2.0\\\""),
                reply("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"engine_getBlobsV2\",\"params\":[[]]}"));
        assertEquals(
                errorReply("null", -32600, "Invalid Request: id must be a number, a string or null"),
                reply("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"engine_getBlobsV2\",\"params\":[[]]}"));
        assertEquals(
                "[" + errorReply("null", -32600, "Invalid Request: a request must be a JSON object") + "]",
                reply("[1]"));
        assertEquals(errorReply("null", -32600, "Invalid Request: a request must be a JSON object"), reply("\"x\""));
    }

    @Test
    void methodNotFound() {
        assertEquals(
                errorReply("3", -32601, "Method not found: engine_getBlobsV9"),
                reply(request(3, "engine_getBlobsV9", "[[]]")));
    }

    @Test
    void invalidParams() {
        assertEquals(
                errorReply("4", -32602, "Invalid params: versioned hash 0: invalid hex character 'z' at index 6"),
                reply(request(4, "engine_getBlobsV2", "[[\"0x01ab" + "z".repeat(60) + "\"]]")));
        assertEquals(
                errorReply(
                        "5",
                        -32602,
                        "Invalid params: versioned hash 1: expected 32 bytes (66 characters with 0x),"
                                + " got 64 characters"),
                reply(request(5, "engine_getBlobsV2", "[[" + HASH + ",\"0x" + "ab".repeat(31) + "\"]]")));
        assertEquals(
                errorReply(
                        "6",
                        -32602,
                        "Invalid params: versioned hash 0: expected '0' of the 0x prefix at index 0," + " found 'a'"),
                reply(request(6, "engine_getBlobsV2", "[[\"ab" + "00".repeat(32) + "\"]]")));
        String wrongShape = "Invalid params: expected one param, an array of strings";
        assertEquals(errorReply("7", -32602, wrongShape), reply(request(7, "engine_getBlobsV2", "[" + HASH + "]")));
        assertEquals(errorReply("7", -32602, wrongShape), reply(request(7, "engine_getBlobsV2", "[[1]]")));
        assertEquals(errorReply("7", -32602, wrongShape), reply(request(7, "engine_getBlobsV2", "[]")));
        assertEquals(
                errorReply("7", -32602, wrongShape), reply(request(7, "engine_getBlobsV2", "[[" + HASH + "],[]]")));
        assertEquals(
                errorReply("7", -32600, "Invalid Request: params must be an array"),
                reply(request(7, "engine_getBlobsV2", "\"x\"")));
    }

    @Test
    void paramsByNameAreInvalidParams() {
        assertEquals(
                errorReply(
                        "9",
                        -32602,
                        "Invalid params: params by name are not supported; expected one param, an"
                                + " array of strings, by position"),
                reply(request(9, "engine_getBlobsV2", "{\"hashes\":[" + HASH + "]}")));
        assertEquals(
                errorReply("9", -32601, "Method not found: engine_getBlobsV9"),
                reply(request(9, "engine_getBlobsV9", "{\"hashes\":[]}")));
    }

    /** The count and the fork are checked before any hash is decoded: 129 bad hashes are "too large", not "invalid". */
    @Test
    void countAndForkComeBeforeTheHashes() {
        String bad = "\"0xzz\"";
        assertEquals(
                errorReply("10", -38004, "Too large request: more than 128 versioned hashes"),
                reply(request(10, "engine_getBlobsV2", "[[" + (bad + ",").repeat(128) + bad + "]]")));
        assertEquals(
                errorReply("11", -38005, "Unsupported fork: serving osaka"),
                reply(request(11, "engine_getBlobsV1", "[[" + bad + "]]")));
    }

    @Test
    void nonPostIsRefused() {
        HttpResponse<byte[]> get = server.send(HttpRequest.newBuilder(server.uri())
                .header("Authorization", "Bearer " + server.token())
                .GET()
                .build());
        assertEquals(405, get.statusCode());
        assertEquals("POST", get.headers().firstValue("allow").orElseThrow());
    }

    @Test
    void aBodyOverTheLimitIsRefusedUnread() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.uri().getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + server.token()
                            + "\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n")
                    .getBytes(US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String status = new String(in.readNBytes(12), US_ASCII);
            assertEquals("HTTP/1.1 413", status);
        }
    }

    @Test
    void compressionIsNeverApplied() {
        HttpResponse<byte[]> response = server.send(HttpRequest.newBuilder(server.uri())
                .header("Authorization", "Bearer " + server.token())
                .header("Accept-Encoding", "gzip, deflate")
                .POST(HttpRequest.BodyPublishers.ofString(request(8, "engine_getBlobsV3", "[[" + HASH + "]]")))
                .build());
        assertEquals(java.util.Optional.empty(), response.headers().firstValue("content-encoding"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":[null]}", new String(response.body(), US_ASCII));
    }

    private static int code(String reply) {
        int at = reply.indexOf("\"code\":") + 7;
        return Integer.parseInt(reply.substring(at, reply.indexOf(',', at)));
    }
}
