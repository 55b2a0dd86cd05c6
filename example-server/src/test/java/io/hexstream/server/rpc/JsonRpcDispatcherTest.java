package io.hexstream.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.Tally;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The dispatcher alone: blocking calls off the caller's thread and back in order, a full executor, the cap. */
class JsonRpcDispatcherTest {
    private static final ResponseWriter WRITER = new ResponseWriter();
    private final AtomicInteger blockingCalls = new AtomicInteger();

    private final RpcMethod echo = new RpcMethod() {
        @Override
        public String name() {
            return "echo";
        }

        @Override
        public RpcResult call(Params params) throws RpcException {
            return words(params.oneString("a word"));
        }
    };

    private final RpcMethod slow = new RpcMethod() {
        @Override
        public String name() {
            return "slow";
        }

        @Override
        public boolean blocking() {
            return true;
        }

        @Override
        public RpcResult call(Params params) throws RpcException {
            blockingCalls.incrementAndGet();
            return words("slow " + params.oneString("a word"));
        }
    };

    /** A result of one string in an array, as a method of this test writes it. */
    private static RpcResult words(String word) {
        return new RpcResult() {
            @Override
            public void write(JsonBodyBuilder b) {
                b.beginArray().string(word).endArray();
            }

            @Override
            public Tally tally() {
                return Tally.NONE;
            }
        };
    }

    private static List<RpcRequest> parse(String json) throws RpcException {
        return new RequestParser(1 << 20, 16, ServerMetrics.NONE)
                .parse(Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.UTF_8)), method -> null)
                .requests();
    }

    private static String text(Replies replies) {
        var body = WRITER.body(replies);
        var input = new io.hexstream.codec.json.JsonBodyInput(body);
        StringBuilder text = new StringBuilder();
        try {
            for (io.netty.buffer.ByteBuf chunk;
                    (chunk = input.readChunk(io.netty.buffer.ByteBufAllocator.DEFAULT)) != null; ) {
                text.append(chunk.toString(StandardCharsets.UTF_8));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return text.toString();
    }

    @Test
    void blockingCallsRunOnTheExecutorAndRepliesKeepTheirOrder() throws Exception {
        ArrayDeque<Runnable> executor = new ArrayDeque<>();
        JsonRpcDispatcher dispatcher =
                new JsonRpcDispatcher(List.of(echo, slow), executor::add, 1 << 20, ServerMetrics.NONE);
        AtomicReference<Replies> done = new AtomicReference<>();
        dispatcher.dispatch(
                parse("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"slow\",\"params\":[\"a\"]},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":[\"b\"]},"
                        + "{\"jsonrpc\":\"2.0\",\"method\":\"slow\",\"params\":[\"c\"]}]"),
                true,
                ImmediateEventExecutor.INSTANCE,
                done::set);
        assertNull(done.get(), "waits for the blocking calls");
        assertEquals(0, blockingCalls.get(), "which did not run on the caller's thread");
        assertEquals(2, executor.size());
        executor.poll().run();
        assertNull(done.get());
        executor.poll().run();
        assertEquals(2, blockingCalls.get());
        assertEquals(
                "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"slow"
                        + " a\"]},{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":[\"b\"]}]",
                text(done.get()));
    }

    @Test
    void aFullExecutorRepliesServerBusyAndRunsNothing() throws Exception {
        JsonRpcDispatcher dispatcher = new JsonRpcDispatcher(
                List.of(slow),
                task -> {
                    throw new RejectedExecutionException("full");
                },
                1 << 20,
                ServerMetrics.NONE);
        AtomicReference<Replies> done = new AtomicReference<>();
        dispatcher.dispatch(
                parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"slow\",\"params\":[\"a\"]}"),
                false,
                ImmediateEventExecutor.INSTANCE,
                done::set);
        assertEquals(0, blockingCalls.get());
        assertEquals(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32000,\"message\":\"Server error: server busy\","
                        + "\"data\":{\"err\":\"server busy\"}}}",
                text(done.get()));
    }

    @Test
    void resultsPastTheCapAreRefusedAndBlockingCallsNotRun() throws Exception {
        String reply = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[\"b\"]}"; // 37 bytes
        long cap = 2 + reply.length() + 1 + reply.length(); // [ two replies ]
        JsonRpcDispatcher dispatcher =
                new JsonRpcDispatcher(List.of(echo, slow), Runnable::run, cap, ServerMetrics.NONE);
        AtomicReference<Replies> done = new AtomicReference<>();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":[\"b\"]}";
        dispatcher.dispatch(
                parse("[" + call + "," + call + "," + call + ","
                        + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"slow\",\"params\":[\"b\"]}]"),
                true,
                ImmediateEventExecutor.INSTANCE,
                done::set);
        String tooLarge =
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,\"message\":\"Server error: response too"
                        + " large: the replies to this HTTP request would pass " + cap
                        + " bytes (--max-response-bytes)\",\"data\":"
                        + "{\"err\":\"response too large: the replies to this HTTP request would pass " + cap
                        + " bytes (--max-response-bytes)\"}}}";
        assertEquals("[" + reply + "," + reply + "," + tooLarge + "," + tooLarge + "]", text(done.get()));
        assertEquals(0, blockingCalls.get(), "a blocking call past the cap is not run");
    }

    /** A successful call's reply is made by the replies given (a renderer's seam), errors as ever. */
    @Test
    void successfulRepliesAreMadeByTheRepliesGiven() throws Exception {
        List<String> seen = new java.util.ArrayList<>();
        JsonRpcDispatcher dispatcher = new JsonRpcDispatcher(
                List.of(echo),
                (id, result) -> {
                    seen.add(new String(id, StandardCharsets.UTF_8));
                    return RpcReply.success(id, words("stand-in"));
                },
                Runnable::run,
                1 << 20,
                ServerMetrics.NONE);
        AtomicReference<Replies> done = new AtomicReference<>();
        dispatcher.dispatch(
                parse("[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"echo\",\"params\":[\"b\"]},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"none\"}]"),
                true,
                ImmediateEventExecutor.INSTANCE,
                done::set);
        assertEquals(List.of("3"), seen);
        assertEquals(
                "[{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":[\"stand-in\"]},{\"jsonrpc\":\"2.0\",\"id\":4,"
                        + "\"error\":{\"code\":-32601,\"message\":\"Method not found: none\"}}]",
                text(done.get()));
    }
}
