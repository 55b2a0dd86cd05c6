package io.hexstream.codec.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.Hex;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.hexstream.codec.testing.Measurements;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonBodyInputTest {
    private static final Object[] IDS = {1L, 9_007_199_254_740_993L, "req-\u00e9\"7", null, 0L};

    /**
     * Random getBlobsV2 bodies through an EmbeddedChannel with ChunkedWriteHandler: the chunks, concatenated, are
     * Jackson's bytes, and no chunk exceeds the configured size.
     */
    @Test
    void chunksConcatenateToJacksonsSerialisation() {
        Random random = new Random(20261130);
        for (int round = 0; round < 12; round++) {
            List<Entry> entries = BlobFixtures.randomEntries(random, random.nextInt(10), 0.25);
            Object id = IDS[round % IDS.length];
            int chunkSize = round % 3 == 0 ? JsonBodyInput.DEFAULT_CHUNK_SIZE : 16 + random.nextInt(300_000);
            byte[] expected = BlobFixtures.jackson(id, entries);
            JsonBody body = BlobFixtures.body(id, entries);
            assertEquals(expected.length, body.length(), "exact length before the first byte");

            EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler());
            JsonBodyInput input = new JsonBodyInput(body, chunkSize);
            assertTrue(channel.writeOutbound(input));
            ByteArrayOutputStream out = new ByteArrayOutputStream(expected.length);
            for (ByteBuf chunk; (chunk = channel.readOutbound()) != null; ) {
                try {
                    assertTrue(chunk.readableBytes() <= chunkSize, chunk.readableBytes() + " > " + chunkSize);
                    assertTrue(chunk.isDirect());
                    chunk.readBytes(out, chunk.readableBytes());
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                } finally {
                    chunk.release();
                }
            }
            assertArrayEquals(expected, out.toByteArray(), "round " + round);
            assertEquals(expected.length, input.progress());
            assertEquals(0, body.refCnt(), "ChunkedWriteHandler closed the input at the end");
            assertFalse(channel.finishAndReleaseAll());
        }
    }

    @Test
    void everyChunkSizeResumesMidTokenAndMidHex() {
        List<Entry> entries = new ArrayList<>(Collections.nCopies(1, BlobFixtures.randomEntry(new Random(3))));
        entries.add(null);
        byte[] expected = BlobFixtures.jackson("x", entries);
        for (int chunkSize : new int[] {16, 17, 31, 97, 4096, 16_385}) {
            JsonBodyInput input = new JsonBodyInput(BlobFixtures.body("x", entries), chunkSize);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int chunks = 0;
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; chunks++) {
                assertTrue(
                        chunk.readableBytes() >= chunkSize - 1 || input.isEndOfInput(),
                        "only the last chunk is short by more than one byte");
                byte[] bytes = new byte[chunk.readableBytes()];
                chunk.readBytes(bytes).release();
                out.writeBytes(bytes);
            }
            input.close();
            assertArrayEquals(expected, out.toByteArray(), "chunk size " + chunkSize);
            assertTrue(chunks >= expected.length / chunkSize);
        }
    }

    @Test
    void closeIsIdempotentAndEndsTheInput() {
        JsonBody body = BlobFixtures.body(1L, List.of());
        JsonBodyInput input = new JsonBodyInput(body, 64);
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}".length(), input.length());
        input.close();
        input.close();
        assertEquals(0, body.refCnt());
        assertTrue(input.isEndOfInput());
        assertNull(input.readChunk(PooledByteBufAllocator.DEFAULT));
    }

    @Test
    void aChunkSizeTooSmallIsRefusedAndTheBodyReleased() {
        JsonBody body = BlobFixtures.body(1L, List.of());
        assertThrows(IllegalArgumentException.class, () -> new JsonBodyInput(body, 15));
        assertEquals(0, body.refCnt());
    }

    /** A source that fails while being read: the chunk in hand is released, the input closed, the error surfaces. */
    @Test
    void aFailingSourceLeavesNothingBehind() {
        ByteBuf source = new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, 100_000, 100_000) {
            @Override
            public ByteBuffer nioBuffer(int index, int length) {
                if (index > 30_000) {
                    throw new IllegalStateException("source failed at " + index);
                }
                return super.nioBuffer(index, length);
            }
        }.writeZero(100_000);
        JsonBody body = JsonBody.builder().beginArray().hex(source).endArray().build();
        source.release();
        EmbeddedChannel channel = new EmbeddedChannel(new ChunkedWriteHandler());
        JsonBodyInput input = new JsonBodyInput(body, 65_536);
        var future = channel.writeAndFlush(input);
        assertTrue(future.isDone());
        // The first chunk holds [, "0x and the digits of bytes 0-32765; the second starts reading at 32766.
        assertEquals("source failed at 32766", future.cause().getMessage());
        assertTrue(input.isEndOfInput(), "ChunkedWriteHandler closed the input");
        ByteBuf first = channel.readOutbound();
        assertEquals(65_536, first.readableBytes(), "the chunk before the failure was written");
        first.release();
        assertNull(channel.readOutbound());
        assertFalse(channel.finishAndReleaseAll());
        assertEquals(0, body.refCnt());
        assertEquals(0, source.refCnt());
    }

    /**
     * Building a 128-blob body and producing every chunk of it builds no String and no full-size array: after warm-up
     * the producer allocates at most 64 KiB (the chunks' NIO views), the builder at most 64 KiB (segments and the
     * literal bytes).
     */
    @Test
    void aWholeWorstCaseBodyAllocatesAtMost64KiBToBuildAnd64KiBToProduce() {
        Random random = new Random(128);
        List<Entry> entries = BlobFixtures.randomEntries(random, 128, 0);
        // First-use costs stay out of the measure: classes, thread-locals, pools, and C2 compiling the
        // kernels (interpreted or C1-compiled, Vector API code allocates its vectors on the heap).
        for (int warm = 0; warm < 20; warm++) {
            drain(BlobFixtures.body(1L, entries.subList(0, 32)));
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();

        // Paranoid leak tracking records a stack trace at every buffer access (5 MiB here): heap of the
        // test harness, not of the code measured. It is off for this block only; every buffer
        // allocated in it is released in it, and the other tests cover the same paths with tracking.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        long building;
        long producing;
        long bytes;
        try {
            long before = threads.getThreadAllocatedBytes(thread);
            JsonBody body = BlobFixtures.body(1L, entries);
            long built = threads.getThreadAllocatedBytes(thread);
            bytes = drain(body);
            producing = threads.getThreadAllocatedBytes(thread) - built;
            building = built - before;
        } finally {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        Measurements.report("a 128-blob body: building allocated " + building + " bytes of heap, producing " + producing
                + " (" + Hex.kernel() + " kernel)");
        assertTrue(producing <= 64 << 10, "producing allocated " + producing + " bytes of heap");
        assertTrue(building <= 64 << 10, "building allocated " + building + " bytes of heap");
        assertEquals(BlobFixtures.jackson(1L, entries).length, bytes);
    }

    private static long drain(JsonBody body) {
        JsonBodyInput input = new JsonBodyInput(body);
        long total = 0;
        for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
            total += chunk.readableBytes();
            chunk.release();
        }
        input.close();
        return total;
    }
}
