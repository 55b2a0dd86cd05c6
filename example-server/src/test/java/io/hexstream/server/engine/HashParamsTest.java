package io.hexstream.server.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.VersionedHash;
import io.hexstream.codec.HexFormatException;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.DecodedArray;
import io.hexstream.server.rpc.ElementReader;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.RpcError;
import io.hexstream.server.rpc.RpcException;
import io.hexstream.server.rpc.RpcRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * getBlobs' versioned hashes are bounded and decoded as the request is parsed: an array over the bound is refused at
 * its first hash over it (no value made of the rest), and each hash is decoded from the parser's text straight into its
 * lookup key.
 */
class HashParamsTest {
    private static final int MAX = 128;
    private static final GetBlobs V2 =
            new GetBlobs(GetBlobs.Version.V2, null, Fork.OSAKA, MAX, ServerMetrics.NONE, null);
    private static final RequestParser PARSER = new RequestParser(32 << 20, 16, ServerMetrics.NONE);

    /** The getBlobs reader, counting the hashes it decodes. */
    private static final class Counting implements ElementReader {
        final AtomicInteger decoded = new AtomicInteger();

        @Override
        public int maxElements() {
            return V2.elements().maxElements();
        }

        @Override
        public RpcException tooMany() {
            return V2.elements().tooMany();
        }

        @Override
        public Object decode(char[] text, int offset, int length, int index) throws RpcException {
            decoded.incrementAndGet();
            return V2.elements().decode(text, offset, length, index);
        }
    }

    @Test
    void aHugeArrayIsRefusedAtItsFirstHashOverTheBound() throws Exception {
        int count = 200_000;
        String hash = "\"0x01" + "ab".repeat(31) + "\"";
        String json = "{\"jsonrpc\":\"2.0\",\"method\":\"engine_getBlobsV2\",\"params\":[["
                + (hash + ",").repeat(count - 1) + hash + "]],\"id\":77}";
        ByteBuf body = Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.US_ASCII));
        Counting reader = new Counting();
        parse(Unpooled.wrappedBuffer("{\"params\":[[\"0x\"]],\"method\":\"m\"}".getBytes()), reader); // warm up
        reader.decoded.set(0);

        long before = allocated();
        RpcRequest request = parse(body, reader);
        long allocated = allocated() - before;

        assertEquals(MAX, reader.decoded.get(), "the hashes up to the bound decoded, none after");
        assertEquals("77", new String(request.id(), StandardCharsets.US_ASCII), "the id after params is read");
        RpcException refused = assertThrows(RpcException.class, () -> V2.call(request.params()));
        assertEquals(RpcError.TOO_LARGE_REQUEST, refused.error());
        assertEquals("more than 128 versioned hashes", refused.getMessage());
        // 13.8 MB of body: with a String per hash it took 25.3 MB; what is left is the parser's own and the 128 keys
        // (20.8 KB measured).
        assertTrue(allocated < 256 * 1024, allocated + " bytes allocated parsing " + body.readableBytes() + " bytes");
    }

    @Test
    void eachHashIsDecodedIntoItsKeyInEitherMemberOrder() throws Exception {
        Random random = new Random(21);
        byte[][] hashes = new byte[MAX][32];
        StringBuilder array = new StringBuilder("[[");
        for (int i = 0; i < MAX; i++) {
            random.nextBytes(hashes[i]);
            array.append(i == 0 ? "\"0x" : ",\"0x")
                    .append(HexFormat.of().formatHex(hashes[i]))
                    .append('"');
        }
        array.append("]]");
        String methodFirst = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"engine_getBlobsV2\",\"params\":" + array + "}";
        String paramsFirst = "{\"params\":" + array + ",\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"engine_getBlobsV2\"}";
        for (String json : new String[] {methodFirst, paramsFirst}) {
            Counting reader = new Counting();
            DecodedArray decoded = parse(Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.US_ASCII)), reader)
                    .params()
                    .oneDecodedArray();
            VersionedHash[] keys = decoded.values(VersionedHash[].class);
            assertEquals(MAX, keys.length);
            for (int i = 0; i < MAX; i++) {
                assertArrayEquals(hashes[i], keys[i].toBytes(), "hash " + i);
            }
            assertEquals(MAX, reader.decoded.get());
        }
    }

    @Test
    void aBadHashIsNamedWithTheDecodersMessage() throws Exception {
        String bad = "0x01" + "ab".repeat(30) + "zz";
        String json = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"engine_getBlobsV2\",\"params\":[[\"0x01"
                + "cd".repeat(31) + "\",\"" + bad + "\"]]}";
        RpcRequest request = parse(Unpooled.wrappedBuffer(json.getBytes(StandardCharsets.US_ASCII)), new Counting());
        RpcException refused = assertThrows(RpcException.class, () -> V2.call(request.params()));
        assertEquals(RpcError.INVALID_PARAMS, refused.error());
        String expected = assertThrows(HexFormatException.class, () -> VersionedHash.decode(bad))
                .getMessage();
        assertEquals("versioned hash 1: " + expected, refused.getMessage());
    }

    private static RpcRequest parse(ByteBuf body, ElementReader reader) throws RpcException {
        try {
            return PARSER.parse(body, method -> reader).requests().get(0);
        } finally {
            body.release();
        }
    }

    /** Bytes allocated by this thread so far. */
    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
