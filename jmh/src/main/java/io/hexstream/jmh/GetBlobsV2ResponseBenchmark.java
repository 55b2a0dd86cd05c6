package io.hexstream.jmh;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.util.List;
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
 * A whole {@code engine_getBlobsV2} response for {@code blobs} blobs (each with 128 cell proofs), the seed's blob
 * counts. Rows:
 *
 * <ul>
 *   <li>{@code besu}, the baseline: Besu main's path ({@link BesuBlobsJson}, which names the Besu files and commits):
 *       the pooled blobs mapped one after another to {@code BlobAndProofV2}s that hold the pool's {@code Bytes}, as
 *       {@code EngineGetBlobsV2.java} does, then Jackson's {@code ObjectWriter.writeValue} of the whole response, each
 *       blob and proof made a {@code String} by tuweni's {@code toFastHex} as Besu's {@code BesuJsonModule} writes it,
 *       into {@link BesuResponseStream} (Besu's {@code JsonResponseStreamer}: each ~8 KB flush copied into a heap
 *       buffer, then into a pooled direct buffer as the transport does);
 *   <li>{@code besuWholeBody}: the same values serialised whole by {@code writeValueAsBytes} (heavier than Besu: shown
 *       only to size what streaming saves);
 *   <li>{@code hexstreamChunks}: the same response as a {@code JsonBody}, every chunk produced into a pooled direct
 *       buffer and released as the socket would.
 * </ul>
 *
 * Run with {@code -prof gc} for allocation. Without JVM options the codec runs its portable kernel; add
 * {@code -jvmArgsAppend --add-modules=jdk.incubator.vector} for SIMD.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GetBlobsV2ResponseBenchmark {

    @Param({"1", "9", "21", "72", "128"})
    public int blobs;

    private final ObjectMapper mapper = BesuBlobsJson.mapper();
    private final ObjectWriter writer = BesuBlobsJson.writer();
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    private byte[][] blobBytes;
    private byte[][] proofBytes;
    private List<BesuBlobsJson.BlobProofBundle> bundles;

    @Setup(Level.Trial)
    public void setUp() {
        PoolBlobs pool = PoolBlobs.random(blobs);
        blobBytes = pool.blobs();
        proofBytes = pool.cellProofs();
        bundles = IntStream.range(0, blobs)
                .mapToObj(i -> BesuBlobsJson.BlobProofBundle.of(blobBytes[i], proofBytes[i]))
                .toList();
    }

    @Benchmark
    public long besu() throws IOException {
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        writer.writeValue(stream, response());
        return stream.written();
    }

    @Benchmark
    public byte[] besuWholeBody() throws JsonProcessingException {
        return mapper.writeValueAsBytes(response());
    }

    /** Besu's response: a {@code BlobAndProofV2} per pooled blob, one after another ({@link BesuBlobsJson}). */
    private BesuBlobsJson.Response response() {
        return new BesuBlobsJson.Response("2.0", "1", BesuBlobsJson.results(bundles));
    }

    @Benchmark
    public long hexstreamChunks() {
        JsonBody body;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginObject()
                    .name("jsonrpc")
                    .string("2.0")
                    .name("id")
                    .raw("1")
                    .name("result")
                    .beginArray();
            for (int i = 0; i < blobs; i++) {
                b.beginObject()
                        .name("blob")
                        .hex(blobBytes[i])
                        .name("proofs")
                        .hexArray(proofBytes[i], 0, BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)
                        .endObject();
            }
            body = b.endArray().endObject().build();
        }
        return BodyDrain.drain(body, pooled);
    }
}
