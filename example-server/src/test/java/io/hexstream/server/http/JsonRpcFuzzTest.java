package io.hexstream.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.testing.RecordingLeakDetector;
import io.hexstream.server.auth.JwtAuthenticator;
import io.hexstream.server.engine.EngineMethods;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.JsonRpcRoute;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.testing.EngineServerFixture;
import io.hexstream.server.testing.FuzzPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jazzer target for the JSON-RPC request path: the input is the body of an authenticated {@code POST /}, written as
 * bytes into the server's own pipeline ({@link EngineApiInitializer}, over a {@link FuzzPool} with
 * {@code eth_sendRawTransaction}, blocking calls run inline) in an {@link EmbeddedChannel}; what comes out is decoded
 * as an HTTP response. Invariants: no exception escapes and the connection stays open; the response is HTTP 200 with
 * its exact {@code Content-Length}; its body is a JSON-RPC reply (an object, or a non-empty array of them, each with
 * {@code "jsonrpc":"2.0"}, an {@code id}, and either a {@code result} or an {@code error} whose code is one of the
 * spec's), or empty only for a request of notifications alone; the pool is unchanged; nothing leaks. Seeds in
 * {@code JsonRpcFuzzTestInputs/}; the build fuzzes it for 60 s (the {@code fuzz} profile in the POM).
 */
class JsonRpcFuzzTest {
    /** The spec's error codes (execution-apis {@code common.md}, "Errors"). */
    private static final Set<Integer> SPEC_CODES =
            Set.of(-32700, -32600, -32601, -32602, -32603, -32000, -38004, -38005);

    private static final Set<String> REPLY_FIELDS = Set.of("jsonrpc", "id", "result", "error");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path data;

    private static FuzzPool pool;
    private static EngineApiInitializer pipeline;
    private static String authorization;

    @BeforeAll
    static void setUp() throws IOException {
        pool = FuzzPool.create(data);
        Clock clock = Clock.fixed(Instant.ofEpochSecond(1_800_000_000L), ZoneOffset.UTC);
        JwtAuthenticator jwt = new JwtAuthenticator(HexDecoder.decode(EngineServerFixture.SECRET), clock);
        ResponseWriter writer = new ResponseWriter();
        JsonRpcDispatcher dispatcher = new JsonRpcDispatcher(
                EngineMethods.all(pool.pool(), Fork.OSAKA, 128, pool.ingest(), ServerMetrics.NONE, null),
                Runnable::run,
                256L << 20,
                ServerMetrics.NONE);
        JsonRpcRoute jsonRpc = new JsonRpcRoute(
                new RequestParser(16 << 20, 1024, ServerMetrics.NONE),
                dispatcher,
                ResponseRenderer.streaming(writer),
                16 << 20,
                ServerMetrics.NONE);
        pipeline = new EngineApiInitializer(
                RouteTable.builder().add(HttpMethod.POST, "/", jsonRpc).build(),
                jwt,
                new EngineApiInitializer.Limits(16 << 20, 16, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                Runnable::run,
                new RefusalLog(),
                ServerMetrics.NONE);
        authorization = "Bearer " + jwt.token();
    }

    @FuzzTest(maxDuration = "60s")
    void everyBodyGetsAJsonRpcReply(byte[] body) throws IOException {
        List<List<String>> before = pool.state();
        FullHttpResponse response = exchange(body);
        try {
            assertEquals(HttpResponseStatus.OK, response.status());
            assertEquals(response.content().readableBytes(), HttpUtil.getContentLength(response));
            byte[] reply = ByteBufUtil.getBytes(response.content());
            if (reply.length == 0) {
                assertNotificationsOnly(body);
            } else {
                assertJsonRpcReply(JSON.readTree(reply));
            }
        } finally {
            response.release();
        }
        assertEquals(before, pool.state(), "the pool changed");
        assertEquals(List.of(), RecordingLeakDetector.drainReports());
    }

    /** {@code body} through the server's handlers; the response as a client decodes it. */
    private static FullHttpResponse exchange(byte[] body) {
        EmbeddedChannel server = new EmbeddedChannel(pipeline);
        EmbeddedChannel client = new EmbeddedChannel(new HttpResponseDecoder(), new HttpObjectAggregator(64 << 20));
        boolean open;
        boolean leftInServer;
        try {
            byte[] head = ("POST / HTTP/1.1\r\nHost: fuzz\r\nAuthorization: " + authorization
                            + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            server.writeInbound(Unpooled.wrappedBuffer(head, body));
            server.runPendingTasks(); // blocking calls answer through the event loop
            open = server.isOpen();
            for (ByteBuf out; (out = server.readOutbound()) != null; ) {
                client.writeInbound(out);
            }
        } finally {
            leftInServer = server.finishAndReleaseAll();
        }
        FullHttpResponse response = client.readInbound();
        Object more = client.readInbound();
        boolean leftInClient = client.finishAndReleaseAll();
        ReferenceCountUtil.release(more);
        if (response != null && (!open || more != null || leftInServer || leftInClient)) {
            response.release();
        }
        assertTrue(open, "the server closed the connection");
        assertNotNull(response, "no whole HTTP response");
        assertEquals(null, more, "more than one response");
        assertFalse(leftInServer, "messages left in the server's channel");
        assertFalse(leftInClient, "bytes left over after the response");
        return response;
    }

    /** An empty reply is right only for notifications: objects without an {@code id}. */
    private static void assertNotificationsOnly(byte[] body) throws IOException {
        JsonNode request = JSON.readTree(body);
        assertNotNull(request, "an empty reply to an empty body");
        Iterator<JsonNode> requests =
                request.isArray() ? request.elements() : List.of(request).iterator();
        assertTrue(requests.hasNext());
        requests.forEachRemaining(r -> assertTrue(r.isObject() && !r.has("id"), "an empty reply to " + r));
    }

    private static void assertJsonRpcReply(JsonNode reply) {
        if (reply.isArray()) {
            assertTrue(reply.size() > 0, "an empty batch reply");
            reply.forEach(JsonRpcFuzzTest::assertOneReply);
        } else {
            assertOneReply(reply);
        }
    }

    private static void assertOneReply(JsonNode reply) {
        assertTrue(reply.isObject(), reply::toString);
        reply.fieldNames().forEachRemaining(name -> assertTrue(REPLY_FIELDS.contains(name), reply::toString));
        assertEquals("2.0", reply.path("jsonrpc").textValue(), reply::toString);
        JsonNode id = reply.get("id");
        assertTrue(id != null && (id.isNumber() || id.isTextual() || id.isNull()), reply::toString);
        assertTrue(reply.has("result") != reply.has("error"), reply::toString);
        JsonNode error = reply.get("error");
        if (error != null) {
            assertTrue(
                    error.path("code").isInt()
                            && SPEC_CODES.contains(error.get("code").intValue()),
                    reply::toString);
            assertTrue(error.path("message").isTextual(), reply::toString);
            if (error.get("code").intValue() == -32000) {
                assertTrue(error.path("data").path("err").isTextual(), reply::toString);
            }
        }
    }
}
