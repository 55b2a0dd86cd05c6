package io.hexstream.server.engine;

import static io.hexstream.server.testing.BlobAssertions.fieldNames;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import ethereum.ckzg4844.CKZG4844JNI;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.codec.testing.Measurements;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.ElementReader;
import io.hexstream.server.rpc.Params;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.testing.CellFixtures;
import io.hexstream.server.testing.TestBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engine_getBlobsV4} on its own (the method and the response writer, no HTTP): every selection checked cell by
 * cell against c-kzg's {@code computeCells}, every proof verified by {@code verifyCellKzgProofBatch}.
 */
class GetBlobsV4Test {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MISSING = "0x01" + "ab".repeat(31);
    private static List<BlobEntry> blobs;
    private static List<byte[]> allCells;

    @TempDir
    Path dataDir;

    @BeforeAll
    static void blobs() {
        blobs = new ArrayList<>();
        allCells = new ArrayList<>();
        for (BlobEntry entry : TestBlobs.first(2)) {
            blobs.add(CellFixtures.withExtensionCells(entry));
            allCells.add(CellFixtures.allCells(entry.blob()));
        }
    }

    @Test
    void cells0To63AreTheBlobsBytesAndAll128AreComputeCells() throws Exception {
        for (int b = 0; b < blobs.size(); b++) {
            assertArrayEquals(blobs.get(b).blob(), Arrays.copyOf(allCells.get(b), BlobSizes.BLOB_SIZE));
        }
        JsonNode result =
                call(pool(blobs), twoAndAMissing(), IntStream.range(0, 128).toArray());
        assertSelected(
                result.get(0),
                blobs.get(0),
                allCells.get(0),
                IntStream.range(0, 128).toArray());
    }

    @Test
    void allZeroSelectsNoCell() throws Exception {
        check(new int[0]);
    }

    @Test
    void allOneSelectsEveryCell() throws Exception {
        check(IntStream.range(0, 128).toArray());
    }

    @Test
    void oneBitSelectsOneCell() throws Exception {
        check(new int[] {0});
        check(new int[] {77});
        check(new int[] {127});
    }

    @Test
    void theLowHalfIsTheBlobsOwnCells() throws Exception {
        check(IntStream.range(0, 64).toArray());
    }

    @Test
    void theHighHalfIsTheExtension() throws Exception {
        check(IntStream.range(64, 128).toArray());
    }

    @Test
    void randomSelections() throws Exception {
        Random random = new Random(0xCE11_5L);
        for (int trial = 0; trial < 6; trial++) {
            int[] cells =
                    IntStream.range(0, 128).filter(i -> random.nextInt(4) == 0).toArray();
            check(cells);
        }
    }

    /**
     * SSZ {@code Bitvector[128]}: cell {@code i} is bit {@code i % 8} of byte {@code i / 8}, least significant bit
     * first.
     */
    @Test
    void theBitarrayIsReadAsAnSszBitvector() throws Exception {
        DurableBlobPool pool = pool(blobs);
        assertCells(call(pool, "0x01" + "00".repeat(15)), 0);
        assertCells(call(pool, "0x80" + "00".repeat(15)), 7);
        assertCells(call(pool, "0x0001" + "00".repeat(14)), 8);
        assertCells(call(pool, "0x" + "00".repeat(15) + "03"), 120, 121); // the spec's example
        assertCells(call(pool, "0x" + "00".repeat(15) + "80"), 127);
    }

    @Test
    void aBlobWithoutCellProofsHasNullCellsAndProofs() throws Exception {
        BlobEntry v0 = new BlobEntry(
                blobs.get(0).blob(),
                blobs.get(0).commitment(),
                blobs.get(0).blobProof(),
                null,
                blobs.get(0).extensionCells());
        JsonNode result = call(pool(List.of(v0)), List.of(v0.versionedHash().toString()), new int[] {3, 64, 100});
        assertEquals("[{\"blob_cells\":[null,null,null],\"proofs\":[null,null,null]}]", result.toString());
    }

    @Test
    void aBlobWithoutExtensionCellsHasNullsFromCell64On() throws Exception {
        BlobEntry entry = blobs.get(1).withExtensionCells(null);
        int[] cells = {5, 63, 64, 127};
        JsonNode result = call(
                        pool(List.of(entry)), List.of(entry.versionedHash().toString()), cells)
                .get(0);
        byte[] expected = allCells.get(1);
        for (int k = 0; k < 2; k++) {
            assertArrayEquals(
                    cell(expected, cells[k]),
                    HexDecoder.decode(result.get("blob_cells").get(k).asText()));
            assertArrayEquals(
                    proof(entry, cells[k]),
                    HexDecoder.decode(result.get("proofs").get(k).asText()));
        }
        for (int k = 2; k < 4; k++) {
            assertTrue(result.get("blob_cells").get(k).isNull());
            assertTrue(result.get("proofs").get(k).isNull());
        }
        assertEquals(4, result.get("blob_cells").size());
        assertEquals(4, result.get("proofs").size());
    }

    @Test
    void metricsCountABlobAvailableWithCellProofsOnly() throws Exception {
        BlobEntry v0 = new BlobEntry(
                blobs.get(1).blob(), blobs.get(1).commitment(), blobs.get(1).blobProof(), null);
        DurableBlobPool pool = pool(List.of(blobs.get(0), v0));
        int[] counted = new int[2];
        ServerMetrics metrics = (ServerMetrics) Proxy.newProxyInstance(
                ServerMetrics.class.getClassLoader(), new Class<?>[] {ServerMetrics.class}, (proxy, called, args) -> {
                    if (called.getName().equals("blobsLookedUp")) {
                        assertEquals("engine_getBlobsV4", args[0]);
                        counted[0] += (int) args[1];
                        counted[1] += (int) args[2];
                    }
                    return null;
                });
        List<String> hashes = List.of(
                blobs.get(0).versionedHash().toString(), v0.versionedHash().toString(), MISSING);
        new GetBlobs(GetBlobs.Version.V4, pool, Fork.AMSTERDAM, 128, metrics, null)
                .call(parse(request(hashes, CellFixtures.bitarray(1, 2))));
        assertArrayEquals(new int[] {3, 1}, counted);
    }

    /**
     * Building and producing a 128-blob × 128-cell response (68.7 MB) allocates at most 128 KiB of heap on the
     * producing thread: cells and proofs are referenced, the index lists shared by every blob. (The call before it,
     * decoding 128 versioned hashes and looking them up, is printed, not bounded here.)
     */
    @Test
    void a128By128ResponseAllocatesAtMost128KiBOnTheProducingThread() throws Exception {
        BlobEntry entry = blobs.get(0);
        DurableBlobPool pool = pool(List.of(entry));
        String request = request(
                Collections.nCopies(128, entry.versionedHash().toString()),
                CellFixtures.bitarray(IntStream.range(0, 128).toArray()));
        GetBlobs v4 = new GetBlobs(GetBlobs.Version.V4, pool, Fork.AMSTERDAM, 128, ServerMetrics.NONE, null);
        ResponseWriter writer = new ResponseWriter();
        Params params = parse(request);
        for (int warm = 0; warm < 10; warm++) { // JIT (the SIMD kernel allocates until C2 has it), pools
            drain(writer.body(new Replies(List.of(RpcReply.success(new byte[] {'1'}, v4.call(params))), false)));
        }
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        // Paranoid leak tracking records a stack trace at every buffer access: heap of the harness. Off
        // for this block only; every buffer allocated in it is released in it.
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        long calling;
        long building;
        long producing;
        long bytes;
        try {
            long before = threads.getThreadAllocatedBytes(thread);
            BlobsResult result = v4.call(params);
            long called = threads.getThreadAllocatedBytes(thread);
            JsonBody body = writer.body(new Replies(List.of(RpcReply.success(new byte[] {'1'}, result)), false));
            long built = threads.getThreadAllocatedBytes(thread);
            bytes = drain(body);
            producing = threads.getThreadAllocatedBytes(thread) - built;
            building = built - called;
            calling = called - before;
        } finally {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        }
        // {"jsonrpc":"2.0","id":1,"result":[ (34), per blob {"blob_cells":[ (15) 128 × (4 + 4,096) + 127
        // commas, ],"proofs":[ (12) 128 × (4 + 96) + 127 commas, ]} (2), 127 commas, ]} (2)
        long perBlob = 15 + 128 * 4_100 + 127 + 12 + 128 * 100 + 127 + 2;
        assertEquals(34 + 128 * perBlob + 127 + 2, bytes);
        Measurements.report("one 128 x 128-cell getBlobsV4: the call allocated " + calling + " bytes of heap, building "
                + building + ", producing " + producing + " (" + Hex.kernel() + " kernel)");
        assertTrue(building + producing <= 128 << 10, "the response allocated " + (building + producing) + " bytes");
    }

    private void check(int[] cells) throws Exception {
        JsonNode result = call(pool(blobs), twoAndAMissing(), cells);
        assertEquals(3, result.size());
        assertSelected(result.get(0), blobs.get(0), allCells.get(0), cells);
        assertTrue(result.get(1).isNull(), "a missing blob is null at its place");
        assertSelected(result.get(2), blobs.get(1), allCells.get(1), cells);
    }

    /** {@code actual} holds exactly {@code cells} of {@code expectedCells} in order, with proofs that verify. */
    private static void assertSelected(JsonNode actual, BlobEntry entry, byte[] expectedCells, int[] cells) {
        assertEquals(List.of("blob_cells", "proofs"), fieldNames(actual));
        assertEquals(cells.length, actual.get("blob_cells").size());
        assertEquals(cells.length, actual.get("proofs").size());
        ByteArrayOutputStream cellBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream proofBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream commitments = new ByteArrayOutputStream();
        long[] indices = new long[cells.length];
        for (int k = 0; k < cells.length; k++) {
            byte[] cell = HexDecoder.decode(actual.get("blob_cells").get(k).asText());
            byte[] proof = HexDecoder.decode(actual.get("proofs").get(k).asText());
            assertArrayEquals(cell(expectedCells, cells[k]), cell, "cell " + cells[k]);
            assertArrayEquals(proof(entry, cells[k]), proof, "proof " + cells[k]);
            cellBytes.writeBytes(cell);
            proofBytes.writeBytes(proof);
            commitments.writeBytes(entry.commitment());
            indices[k] = cells[k];
        }
        if (cells.length > 0) {
            assertTrue(
                    CKZG4844JNI.verifyCellKzgProofBatch(
                            commitments.toByteArray(), indices, cellBytes.toByteArray(), proofBytes.toByteArray()),
                    "the cell proofs verify");
        }
    }

    private static void assertCells(JsonNode result, int... cells) {
        assertSelected(result.get(0), blobs.get(0), allCells.get(0), cells);
    }

    private JsonNode call(DurableBlobPool pool, String bitarray) throws Exception {
        return call(pool, List.of(blobs.get(0).versionedHash().toString()), bitarray);
    }

    private JsonNode call(DurableBlobPool pool, List<String> hashes, int[] cells) throws Exception {
        return call(pool, hashes, CellFixtures.bitarray(cells));
    }

    private JsonNode call(DurableBlobPool pool, List<String> hashes, String bitarray) throws Exception {
        BlobsResult result = new GetBlobs(GetBlobs.Version.V4, pool, Fork.AMSTERDAM, 128, ServerMetrics.NONE, null)
                .call(parse(request(hashes, bitarray)));
        JsonBody body =
                new ResponseWriter().body(new Replies(List.of(RpcReply.success(new byte[] {'7'}, result)), false));
        long length = body.length();
        byte[] bytes = render(body);
        assertEquals(length, bytes.length);
        JsonNode reply = JSON.readTree(bytes);
        assertEquals(List.of("jsonrpc", "id", "result"), fieldNames(reply));
        return reply.get("result");
    }

    private List<String> twoAndAMissing() {
        return List.of(
                blobs.get(0).versionedHash().toString(),
                MISSING,
                blobs.get(1).versionedHash().toString());
    }

    private DurableBlobPool pool(List<BlobEntry> entries) throws Exception {
        DurableBlobPool pool =
                DurableBlobPool.open(dataDir.resolve("pool-" + System.nanoTime()), 1024, ServerMetrics.NONE);
        for (BlobEntry entry : entries) {
            pool.add(PoolItem.generated(entry));
        }
        return pool;
    }

    private static String request(List<String> hashes, String bitarray) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"engine_getBlobsV4\",\"params\":[[\""
                + String.join("\",\"", hashes) + "\"],\"" + bitarray + "\"]}";
    }

    /** How V4 reads its versioned hashes as the request is parsed. */
    private static final ElementReader HASHES =
            new GetBlobs(GetBlobs.Version.V4, null, Fork.AMSTERDAM, 128, ServerMetrics.NONE, null).elements();

    private static Params parse(String request) throws Exception {
        ByteBuf body = Unpooled.wrappedBuffer(request.getBytes(StandardCharsets.UTF_8));
        try {
            return new RequestParser(1 << 20, 16, ServerMetrics.NONE)
                    .parse(body, method -> HASHES)
                    .requests()
                    .get(0)
                    .params();
        } finally {
            body.release();
        }
    }

    private static byte[] cell(byte[] allCells, int index) {
        return Arrays.copyOfRange(allCells, index * BlobSizes.CELL_SIZE, (index + 1) * BlobSizes.CELL_SIZE);
    }

    private static byte[] proof(BlobEntry entry, int index) {
        return Arrays.copyOfRange(entry.cellProofs(), index * BlobSizes.PROOF_SIZE, (index + 1) * BlobSizes.PROOF_SIZE);
    }

    private static byte[] render(JsonBody body) {
        JsonBodyInput input = new JsonBodyInput(body);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
                out.writeBytes(io.netty.buffer.ByteBufUtil.getBytes(chunk));
                chunk.release();
            }
        } finally {
            input.close();
        }
        return out.toByteArray();
    }

    private static long drain(JsonBody body) throws Exception {
        JsonBodyInput input = new JsonBodyInput(body);
        long total = 0;
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
                total += chunk.readableBytes();
                chunk.release();
            }
        } finally {
            input.close();
        }
        return total;
    }
}
