package io.hexstream.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.codec.testing.Assume;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcMethod;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code engine_exchangeCapabilities} as the method table makes it, under each fork, against the methods the spec
 * defines: the same names, none but the {@code engine_} methods the fork serves, never itself.
 */
class ExchangeCapabilitiesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The methods each spec file defines, its {@code ### engine_…} headings (execution-apis {@code src/engine/}, commit
     * 033ca6e6, as in {@code ../shared/spec} beside the checkout).
     */
    private static final Map<String, List<String>> SPEC = Map.of(
            "cancun.md",
                    List.of(
                            "engine_newPayloadV3",
                            "engine_forkchoiceUpdatedV3",
                            "engine_getPayloadV3",
                            "engine_getBlobsV1"),
            "osaka.md", List.of("engine_getPayloadV5", "engine_getBlobsV2", "engine_getBlobsV3"),
            "amsterdam.md",
                    List.of(
                            "engine_newPayloadV5",
                            "engine_getPayloadV6",
                            "engine_getPayloadBodiesByHashV2",
                            "engine_getPayloadBodiesByRangeV2",
                            "engine_forkchoiceUpdatedV4",
                            "engine_getBlobsV4"),
            "common.md", List.of("engine_exchangeCapabilities"),
            "identification.md", List.of("engine_getClientVersionV1"));

    private static final Pattern HEADING = Pattern.compile("^### (engine_\\w+)$", Pattern.MULTILINE);

    @Test
    void listsTheSpecsGetBlobsOfEachFork() throws Exception {
        assertEquals(spec("cancun.md", "engine_getBlobsV1"), capabilities(Fork.PRAGUE));
        // V4 is Amsterdam's, served under Osaka too (GetBlobs.Version.V4)
        List<String> fromOsaka = concat(
                spec("osaka.md", "engine_getBlobsV2", "engine_getBlobsV3"), spec("amsterdam.md", "engine_getBlobsV4"));
        assertEquals(fromOsaka, capabilities(Fork.OSAKA));
        assertEquals(fromOsaka, capabilities(Fork.AMSTERDAM));
    }

    /** The table's other {@code engine_} methods are those its fork refuses: {@code -38005 Unsupported fork}. */
    @Test
    void leavesOutOnlyWhatTheForkRefusesAndItself() throws Exception {
        for (Fork fork : Fork.values()) {
            List<String> listed = capabilities(fork);
            for (RpcMethod method : table(fork)) {
                String name = method.name();
                if (name.startsWith("engine_") && !listed.contains(name) && !name.equals(ExchangeCapabilities.NAME)) {
                    String params = name.equals("engine_getBlobsV4") ? "[[],\"0x" + "ff".repeat(16) + "\"]" : "[[]]";
                    assertEquals(
                            -38005,
                            call(fork, name, params).get("error").get("code").asInt(),
                            fork + " " + name);
                }
            }
        }
    }

    /** The copy above is the spec's, where the spec is at hand. */
    @Test
    void specMethodsAreTheSpecFilesHeadings() throws IOException {
        Path spec = Path.of("..", "..", "shared", "spec").toAbsolutePath().normalize();
        Assume.that(Files.isDirectory(spec), "no execution-apis spec at " + spec + " to compare the copy with");
        Map<String, List<String>> found = new TreeMap<>();
        for (String file : SPEC.keySet()) {
            Matcher heading = HEADING.matcher(Files.readString(spec.resolve(file)));
            List<String> names = new ArrayList<>();
            while (heading.find()) {
                names.add(heading.group(1));
            }
            found.put(file, names);
        }
        assertEquals(new TreeMap<>(SPEC), found);
    }

    /** The names, each checked to be one the spec file defines. */
    private static List<String> spec(String file, String... names) {
        for (String name : names) {
            assertTrue(SPEC.get(file).contains(name), file + " defines " + name);
        }
        return List.of(names);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    private static List<RpcMethod> table(Fork fork) {
        return EngineMethods.all(null, fork, 128, null, ServerMetrics.NONE, null);
    }

    private static List<String> capabilities(Fork fork) throws Exception {
        JsonNode reply = call(fork, ExchangeCapabilities.NAME, "[[\"engine_getBlobsV2\"]]");
        List<String> names = new ArrayList<>();
        reply.get("result").forEach(name -> names.add(name.asText()));
        return names;
    }

    /** One call through JSON-RPC to the fork's method table, its reply as JSON. */
    private static JsonNode call(Fork fork, String method, String params) throws Exception {
        List<RpcMethod> table = table(fork);
        Map<String, RpcMethod> byName = new TreeMap<>();
        table.forEach(m -> byName.put(m.name(), m));
        String request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        ByteBuf body = Unpooled.wrappedBuffer(request.getBytes(StandardCharsets.UTF_8));
        AtomicReference<Replies> done = new AtomicReference<>();
        try {
            new JsonRpcDispatcher(table, Runnable::run, 1 << 20, ServerMetrics.NONE)
                    .dispatch(
                            new RequestParser(1 << 20, 16, ServerMetrics.NONE)
                                    .parse(body, name -> byName.get(name).elements())
                                    .requests(),
                            false,
                            ImmediateEventExecutor.INSTANCE,
                            done::set);
        } finally {
            body.release();
        }
        JsonBodyInput input = new JsonBodyInput(new ResponseWriter().body(done.get()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null; ) {
                out.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(chunk));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return JSON.readTree(out.toByteArray());
    }
}
