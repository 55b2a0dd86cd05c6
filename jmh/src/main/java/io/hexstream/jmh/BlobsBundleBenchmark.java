package io.hexstream.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
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
 * An {@code engine_getPayloadV5}-shaped response whose {@code blobsBundle} ({@code BlobsBundleV2}: {@code commitments},
 * {@code proofs} = 128 cell proofs per blob flat, {@code blobs}) holds {@code blobs} blobs, next to a small execution
 * payload. Rows:
 *
 * <ul>
 *   <li>{@code besuToday}: Besu main's path ({@link BesuBlobsJson}, which names the Besu files and commits): on each
 *       call {@code results/BlobsBundleV1.java}'s three sequential streams gather the blob transactions'
 *       {@code KZGCommitment}, {@code KZGProof} and {@code Blob} values into lists, held as they are, and Besu's mapper
 *       writes the response into {@link BesuResponseStream}, each value made a {@code String} by tuweni's
 *       {@code toFastHex} as it is written (one transaction per blob here);
 *   <li>{@code hexModule}: the bundle's tuweni {@code Bytes}/{@code Bytes48} lists with {@link HexModule}, same stream;
 *   <li>{@code jsonBody}: the response as a {@code JsonBody}, every chunk produced into a pooled direct buffer and
 *       released as the socket would.
 * </ul>
 *
 * Run with {@code -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class BlobsBundleBenchmark {

    @Param({"6", "21", "72", "128"})
    public int blobs;

    /** A few fields of the execution payload, the same in every row (their cost is not the question). */
    public record Payload(String blockHash, String blockNumber, String gasUsed, List<String> transactions) {}

    public record Bundle(List<?> commitments, List<?> proofs, List<?> blobs) {}

    public record Result(
            Payload executionPayload,
            String blockValue,
            Bundle blobsBundle,
            boolean shouldOverrideBuilder,
            List<String> executionRequests) {}

    public record Response(String jsonrpc, int id, Result result) {}

    /** A blob transaction's {@code BlobsWithCommitments}, as Besu holds its values. */
    private record TxBlobs(
            List<BesuBlobsJson.KzgValue> commitments,
            List<BesuBlobsJson.KzgValue> proofs,
            List<BesuBlobsJson.Blob> blobs) {}

    private static final Payload PAYLOAD = new Payload("0x" + "ab".repeat(32), "0x1234", "0x5208", List.of("0x02f8"));

    private final ObjectWriter besu = BesuBlobsJson.writer();
    private final ObjectWriter hexModule =
            new ObjectMapper().registerModule(new HexModule()).writer();
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    private List<Bytes48> commitments;
    private List<Bytes48> proofs;
    private List<Bytes> blobValues;
    private List<byte[]> commitmentBytes;
    private byte[] proofBytes;
    private List<byte[]> blobBytes;
    private List<TxBlobs> transactions;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(0x5EED_1000L + blobs);
        commitments = new ArrayList<>();
        proofs = new ArrayList<>();
        blobValues = new ArrayList<>();
        commitmentBytes = new ArrayList<>();
        blobBytes = new ArrayList<>();
        proofBytes = new byte[blobs * BlobSizes.CELLS_PER_EXT_BLOB * BlobSizes.PROOF_SIZE];
        random.nextBytes(proofBytes);
        for (int i = 0; i < blobs; i++) {
            byte[] commitment = new byte[BlobSizes.COMMITMENT_SIZE];
            byte[] blob = new byte[BlobSizes.BLOB_SIZE];
            random.nextBytes(commitment);
            random.nextBytes(blob);
            commitmentBytes.add(commitment);
            blobBytes.add(blob);
            commitments.add(Bytes48.wrap(commitment));
            blobValues.add(Bytes.wrap(blob));
        }
        for (int p = 0; p < blobs * BlobSizes.CELLS_PER_EXT_BLOB; p++) {
            proofs.add(Bytes48.wrap(
                    Arrays.copyOfRange(proofBytes, p * BlobSizes.PROOF_SIZE, (p + 1) * BlobSizes.PROOF_SIZE)));
        }
        transactions = new ArrayList<>(blobs);
        for (int i = 0; i < blobs; i++) {
            List<BesuBlobsJson.KzgValue> cellProofs = new ArrayList<>(BlobSizes.CELLS_PER_EXT_BLOB);
            for (int p = 0; p < BlobSizes.CELLS_PER_EXT_BLOB; p++) {
                cellProofs.add(BesuBlobsJson.kzgValue(
                        proofBytes, (i * BlobSizes.CELLS_PER_EXT_BLOB + p) * BlobSizes.PROOF_SIZE));
            }
            transactions.add(new TxBlobs(
                    List.of(BesuBlobsJson.kzgValue(commitmentBytes.get(i), 0)),
                    List.copyOf(cellProofs),
                    List.of(new BesuBlobsJson.Blob(Bytes.wrap(blobBytes.get(i))))));
        }
    }

    private static Response response(Bundle bundle) {
        return new Response("2.0", 1, new Result(PAYLOAD, "0x1bc16d674ec80000", bundle, false, List.of()));
    }

    @Benchmark
    public long besuToday() throws IOException {
        Bundle bundle = new Bundle(
                transactions.stream()
                        .map(TxBlobs::commitments)
                        .flatMap(List::stream)
                        .toList(),
                transactions.stream().map(TxBlobs::proofs).flatMap(List::stream).toList(),
                transactions.stream().map(TxBlobs::blobs).flatMap(List::stream).toList());
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        besu.writeValue(stream, response(bundle));
        return stream.written();
    }

    @Benchmark
    public long hexModule() throws IOException {
        BesuResponseStream stream = BesuResponseStream.intoDirectBuffers(pooled);
        hexModule.writeValue(stream, response(new Bundle(commitments, proofs, blobValues)));
        return stream.written();
    }

    @Benchmark
    public long jsonBody() {
        JsonBody body;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginObject()
                    .name("jsonrpc")
                    .string("2.0")
                    .name("id")
                    .number(1)
                    .name("result")
                    .beginObject()
                    .name("executionPayload")
                    .beginObject()
                    .name("blockHash")
                    .string(PAYLOAD.blockHash())
                    .name("blockNumber")
                    .string(PAYLOAD.blockNumber())
                    .name("gasUsed")
                    .string(PAYLOAD.gasUsed())
                    .name("transactions")
                    .beginArray()
                    .string(PAYLOAD.transactions().get(0))
                    .endArray()
                    .endObject()
                    .name("blockValue")
                    .string("0x1bc16d674ec80000")
                    .name("blobsBundle")
                    .beginObject()
                    .name("commitments")
                    .hexArray(commitmentBytes)
                    .name("proofs")
                    .hexArray(proofBytes, 0, BlobSizes.PROOF_SIZE, blobs * BlobSizes.CELLS_PER_EXT_BLOB)
                    .name("blobs")
                    .hexArray(blobBytes)
                    .endObject()
                    .name("shouldOverrideBuilder")
                    .raw("false")
                    .name("executionRequests")
                    .beginArray()
                    .endArray()
                    .endObject()
                    .endObject();
            body = b.build();
        }
        return BodyDrain.drain(body, pooled);
    }
}
