package io.hexstream.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.BlobCellsAndProofsV1;
import io.hexstream.server.engine.BlobsResult;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole {@code engine_getBlobsV4} response for {@code blobs} blobs and {@code cells} cells of each: 8 (a typical
 * custody set, cells 5, 21, …, 117: half in the blob, half in the extension) or all 128 (68.7 MB of JSON for 128
 * blobs). Rows:
 *
 * <ul>
 *   <li>{@code jacksonStrings}, the baseline: Besu's path, every selected cell and its proof a {@code String} by the
 *       {@code char[]} method ({@link JacksonCellStrings}, as Besu's {@code EngineGetBlobsV4} slices its 128 stored
 *       cells and calls {@code HexUtils.toFastHex}), serialised by Jackson's {@code ObjectWriter.writeValue} into
 *       {@link BesuResponseStream} (Besu's {@code JsonResponseStreamer}: each ~8 KB flush copied into a heap buffer,
 *       then into a pooled direct buffer as the transport does);
 *   <li>{@code hexstreamChunks}: the product's path, the server's reply ({@code BlobsResult}) describing the same
 *       response (cells referenced in the blob and its extension cells, proofs in the cell proofs) and every chunk
 *       produced into a pooled direct buffer and released as the socket would.
 * </ul>
 *
 * Run with {@code -prof gc} for allocation; add {@code -jvmArgsAppend --add-modules=jdk.incubator.vector} for SIMD.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GetBlobsV4ResponseBenchmark {
    /** The custody-set selection: 8 cells, one every 16. */
    public static final int[] CUSTODY_CELLS =
            IntStream.range(0, 8).map(i -> 5 + 16 * i).toArray();

    @Param({"128"})
    public int blobs;

    @Param({"8", "128"})
    public int cells;

    private final ObjectWriter writer = new ObjectMapper().writer();
    private final ResponseWriter responses = new ResponseWriter();
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    private int[] selected;
    private CellIndices indices;
    private List<BlobEntry> entries;

    @Setup(Level.Trial)
    public void setUp() {
        selected = cells == 8 ? CUSTODY_CELLS : IntStream.range(0, cells).toArray();
        byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
        for (int cell : selected) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        indices = CellIndices.decode(Hex.encodeToString(bits, true));
        Random random = new Random(0x5EED_0400L + blobs);
        entries = new ArrayList<>(blobs);
        for (int i = 0; i < blobs; i++) {
            byte[] blob = bytes(random, BlobSizes.BLOB_SIZE);
            byte[] extension = bytes(random, BlobSizes.EXTENSION_CELLS_SIZE);
            entries.add(new BlobEntry(
                    blob,
                    bytes(random, BlobSizes.COMMITMENT_SIZE),
                    null,
                    bytes(random, BlobSizes.CELL_PROOFS_SIZE),
                    extension));
        }
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    @Benchmark
    public long jacksonStrings() throws IOException {
        List<JacksonCellStrings.BlobCellsAndProofsV1> result = new ArrayList<>(blobs);
        for (BlobEntry entry : entries) {
            result.add(JacksonCellStrings.cellsAndProofs(
                    entry.blob(), entry.extensionCells(), entry.cellProofs(), selected));
        }
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        writer.writeValue(stream, new BesuBlobsJson.Response("2.0", "1", result));
        return stream.written();
    }

    @Benchmark
    public long hexstreamChunks() {
        BlobsResult result = new BlobsResult(entries, new BlobCellsAndProofsV1(indices), null, Tally.NONE);
        return BodyDrain.drain(
                responses.body(new Replies(List.of(RpcReply.success(new byte[] {'1'}, result)), false)), pooled);
    }
}
