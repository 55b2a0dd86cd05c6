package io.hexstream.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.vertx.VertxResponseOutputStream;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;
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
 * An {@code engine_getBlobsV2} response on Besu's own shapes: a {@code BlobAndProofV2}-like result per blob (a blob and
 * its 128 cell proofs), serialised by Jackson into {@link BesuResponseStream} (Besu's {@code JsonResponseStreamer}:
 * each write copied into a heap buffer, then into a pooled direct one). Rows:
 *
 * <ul>
 *   <li>{@code besuToday}: Besu main's path ({@link BesuBlobsJson}, which names the Besu files and commits): a
 *       {@code BlobAndProofV2} per pooled blob, made one after another and holding the pool's {@code Blob} and
 *       {@code KZGProof} values, written by Besu's mapper, whose {@code BesuJsonModule} makes each a {@code String} by
 *       tuweni's {@code toFastHex} as it writes it;
 *   <li>{@code hexModule}: a result of tuweni {@code Bytes} fields per blob with {@link HexModule};
 *   <li>{@code hexModuleStreamed}: the alternative {@code HexModule} was measured against,
 *       {@link StreamedHexSerializer} (8 KiB pieces straight to the stream), same stream;
 *   <li>{@code hexModuleDirect}: {@link HexModule} into {@link DirectResponseStream} (no heap copy per write), to show
 *       what the module itself allocates;
 *   <li>{@code hexModuleVertxStream}: {@link HexModule} into the codec's {@link VertxResponseOutputStream} (pooled
 *       direct chunks of its default size handed to Vert.x without a copy) over a {@link CompletingVertxResponse},
 *       whose writes complete at once, so each chunk is released as soon as it is handed on.
 * </ul>
 *
 * Each proof is its own 48-byte array, as KZG hands them to Besu. Run with {@code -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JacksonModuleBenchmark {

    @Param({"1", "6", "21", "72", "128"})
    public int blobs;

    /** A {@code BlobAndProofV2} holding tuweni values, for {@link HexModule}. */
    public record BytesResult(Bytes blob, List<Bytes48> proofs) {}

    private final ObjectWriter besu = BesuBlobsJson.writer();
    private final ObjectWriter hexModule =
            new ObjectMapper().registerModule(new HexModule()).writer();
    private final ObjectWriter streamed = new ObjectMapper()
            .registerModule(new SimpleModule().addSerializer(new StreamedHexSerializer()))
            .writer();
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    private List<BesuBlobsJson.BlobProofBundle> bundles;
    private Bytes[] blobValues;
    private List<List<Bytes48>> proofValues;

    @Setup(Level.Trial)
    public void setUp() {
        PoolBlobs pool = PoolBlobs.random(blobs);
        bundles = new ArrayList<>(blobs);
        blobValues = new Bytes[blobs];
        proofValues = new ArrayList<>(blobs);
        for (int i = 0; i < blobs; i++) {
            bundles.add(BesuBlobsJson.BlobProofBundle.of(pool.blobs()[i], pool.cellProofs()[i]));
            List<Bytes48> proofs = new ArrayList<>(BlobSizes.CELLS_PER_EXT_BLOB);
            for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
                proofs.add(Bytes48.wrap(pool.proof(i, p)));
            }
            blobValues[i] = Bytes.wrap(pool.blobs()[i]);
            proofValues.add(proofs);
        }
    }

    /** The response as Besu would build it from pooled {@code Bytes}: a result object per blob, no hex. */
    private BesuBlobsJson.Response bytesResponse() {
        List<BytesResult> result = new ArrayList<>(blobs);
        for (int i = 0; i < blobs; i++) {
            result.add(new BytesResult(blobValues[i], proofValues.get(i)));
        }
        return new BesuBlobsJson.Response("2.0", "1", result);
    }

    @Benchmark
    public long besuToday() throws IOException {
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        besu.writeValue(stream, new BesuBlobsJson.Response("2.0", "1", BesuBlobsJson.results(bundles)));
        return stream.written();
    }

    @Benchmark
    public long hexModule() throws IOException {
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        hexModule.writeValue(stream, bytesResponse());
        return stream.written();
    }

    @Benchmark
    public long hexModuleDirect() throws IOException {
        DirectResponseStream stream = new DirectResponseStream(pooled);
        hexModule.writeValue(stream, bytesResponse());
        return stream.written();
    }

    @Benchmark
    public long hexModuleVertxStream() throws IOException {
        CompletingVertxResponse response = new CompletingVertxResponse();
        hexModule.writeValue(
                new VertxResponseOutputStream(
                        response.response(), pooled, VertxResponseOutputStream.DEFAULT_CHUNK_SIZE),
                bytesResponse());
        return response.written();
    }

    @Benchmark
    public long hexModuleStreamed() throws IOException {
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        streamed.writeValue(stream, bytesResponse());
        return stream.written();
    }
}
