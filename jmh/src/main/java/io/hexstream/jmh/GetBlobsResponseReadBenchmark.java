package io.hexstream.jmh;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.GetBlobsResponses;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.jackson.HexDeserializer;
import io.hexstream.codec.jackson.HexModule;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Reading a whole {@code engine_getBlobsV2} response of {@code blobs} blobs (each with 128 cell proofs), the bytes as
 * the example server writes them ({@code ResponseWriter}'s layout, built with {@link JsonBodyBuilder}), into decoded
 * values. The Teku rows model Consensys/teku at commit {@value #TEKU_COMMIT}: its engine client's mapper
 * ({@code AbstractExecutionEngineClient.java}: {@code JsonMapper.builder()} with {@code BlackbirdModule},
 * {@code ALLOW_UNQUOTED_FIELD_NAMES} on, {@code FAIL_ON_UNKNOWN_PROPERTIES} off; Jackson and Blackbird 2.22.1, Teku's
 * {@code gradle/versions.gradle}), its {@code schema/BlobAndProofV2.java} ({@link TekuBlobAndProofV2}) and its
 * {@code serialization/BytesDeserializer.java} and {@code Bytes48Deserializer.java} ({@link TekuShapedDeserializer}),
 * all in {@code ethereum/executionclient/src/main/java/tech/pegasys/teku/ethereum/executionclient/}. Rows:
 *
 * <ul>
 *   <li>{@code tekuTree}: Teku's production path, {@code OkHttpHttpExecutionEngineClient.doRequest}:
 *       {@code objectMapper.readTree(body.byteStream())}, the {@code error} member looked at, then
 *       {@code objectMapper.treeToValue(resultNode, resultType)} with the {@code List<BlobAndProofV2>} type its
 *       {@code getBlobsV2} builds. From a tree, {@code getTextCharacters()} is {@code getText().toCharArray()}: a
 *       {@code String} per value in the tree and a {@code char[]} copy of it;
 *   <li>{@code tekuStream}: the same mapper and types through {@code readValue(InputStream)} of the whole response into
 *       an envelope record (the streaming parser joins a long value's text segments into one {@code char[]} for
 *       {@code getTextCharacters()}): what Teku's path would cost without the tree;
 *   <li>{@code tekuReadValue}: Teku's own benchmark,
 *       {@code EngineApiDeserializationBenchmark.deserializeGetBlobsV2Response} (in
 *       {@code eth-benchmark-tests/src/jmh/java/tech/pegasys/teku/benchmarks/}): {@code readValue} of the
 *       {@code result} array alone, from a {@code String} made before the measurement, into
 *       {@code List<BlobAndProofV2>}: no bytes decoded to characters, no envelope, no tree;
 *   <li>{@code wholeString}: the body made a {@code String}, parsed into a tree, then each hex value decoded (the
 *       Lodestar {@code res.text()} + {@code JSON.parse} and Prysm {@code json.RawMessage} shape);
 *   <li>{@code hexModule}: ours, {@code readValue(InputStream)} with {@link HexModule} into a record of {@code Bytes}
 *       and {@code List<Bytes48>};
 *   <li>{@code hexModuleByteArrays}: the same into {@code byte[]} fields with {@link HexDeserializer};
 *   <li>{@code jacksonScan}: no values, only Jackson's parser reading every token and finishing every string: what any
 *       deserializer on Jackson 2's streaming parser costs at least;
 *   <li>{@code hexstreamReader}: the response as a socket hands it over, in pooled direct chunks of 64 KiB, fed to a
 *       {@link JsonHexReader} that decodes each blob and its proofs into pooled direct buffers; each entry is handed
 *       over (here: consumed and released) as soon as its last byte is decoded;
 *   <li>{@code readV2}: the client's {@link GetBlobsResponses#readV2} on the body's {@code InputStream}, as
 *       {@code tekuTree} reads it (the stream an OkHttp or JDK {@code HttpClient} user holds): 64 KiB at a time, each
 *       blob and proof decoded into a new {@code byte[]} of its size, each entry handed to a function as soon as it is
 *       read.
 * </ul>
 *
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} is the allocation per response. Without JVM options the codec
 * runs its portable kernel; add {@code -jvmArgsAppend --add-modules=jdk.incubator.vector} for SIMD.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GetBlobsResponseReadBenchmark {
    /** The Consensys/teku commit the Teku rows model. */
    public static final String TEKU_COMMIT = "90ed09bbc623b616a6c642deca8119db8902b3b2";

    /** Bytes a socket read hands over at a time. */
    static final int CHUNK = 64 * 1024;

    /** 21: today's mainnet maximum; 72 and 128: the sizes of the acceptance rows. */
    @Param({"21", "72", "128"})
    public int blobs;

    /**
     * Teku's {@code schema/BlobAndProofV2.java} for reading: the two fields with their deserializers named on them, a
     * {@code @JsonCreator} constructor that refuses a missing member.
     */
    public static final class TekuBlobAndProofV2 {
        @JsonDeserialize(using = TekuShapedDeserializer.BytesOf.class)
        private final Bytes blob;

        @JsonDeserialize(contentUsing = TekuShapedDeserializer.Bytes48Of.class)
        private final List<Bytes48> proofs;

        @JsonCreator
        public TekuBlobAndProofV2(@JsonProperty("blob") Bytes blob, @JsonProperty("proofs") List<Bytes48> proofs) {
            this.blob = Objects.requireNonNull(blob, "blob");
            this.proofs = Objects.requireNonNull(proofs, "proofs");
        }

        public Bytes blob() {
            return blob;
        }

        public List<Bytes48> proofs() {
            return proofs;
        }
    }

    /** The whole response with Teku's result type (the {@code tekuStream} row). */
    public record TekuResponse(String jsonrpc, int id, List<TekuBlobAndProofV2> result) {}

    /** {@code BlobAndProofV2} of tuweni values, for {@link HexModule}. */
    public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    public record Response(String jsonrpc, int id, List<BlobAndProofV2> result) {}

    /** {@code BlobAndProofV2} of {@code byte[]}, for {@link HexDeserializer}. */
    public record RawBlobAndProofV2(
            @JsonDeserialize(using = HexDeserializer.class) byte[] blob,

            @JsonDeserialize(contentUsing = HexDeserializer.class)
            List<byte[]> proofs) {}

    public record RawResponse(String jsonrpc, int id, List<RawBlobAndProofV2> result) {}

    /** Teku's engine client's mapper. */
    protected final ObjectMapper teku = tekuObjectMapper();

    protected final ObjectReader tekuResponse = teku.readerFor(TekuResponse.class);
    /** Teku's benchmark's type, {@code new TypeReference<List<BlobAndProofV2>>() {}}. */
    protected final TypeReference<List<TekuBlobAndProofV2>> tekuResultList = new TypeReference<>() {};

    protected final ObjectMapper hex = new ObjectMapper().registerModule(new HexModule());
    protected final ObjectReader hexResponse = hex.readerFor(Response.class);
    protected final ObjectReader rawResponse = hex.readerFor(RawResponse.class);
    protected final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    /** The response's bytes, as the example server sends them. */
    protected byte[] body;
    /** The {@code result} array of {@link #body} as a {@code String}: the input of Teku's own benchmark. */
    protected String resultJson;
    /** The same bytes in pooled direct chunks of {@link #CHUNK}; each is read from index 0 by every invocation. */
    private ByteBuf[] chunks;

    @Setup(Level.Trial)
    public void setUp() {
        body = responseBytes(PoolBlobs.random(blobs));
        String text = new String(body, StandardCharsets.US_ASCII);
        resultJson = text.substring(text.indexOf('['), text.lastIndexOf(']') + 1);
        chunks = new ByteBuf[(body.length + CHUNK - 1) / CHUNK];
        for (int i = 0; i < chunks.length; i++) {
            int from = i * CHUNK;
            int length = Math.min(CHUNK, body.length - from);
            chunks[i] = pooled.directBuffer(length).writeBytes(body, from, length);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (ByteBuf chunk : chunks) {
            chunk.release();
        }
    }

    /**
     * An {@code engine_getBlobsV2} success response of {@code pool}'s blobs and their cell proofs, laid out by
     * {@link JsonBodyBuilder} as the example server's {@code ResponseWriter} lays it out.
     */
    static byte[] responseBytes(PoolBlobs pool) {
        JsonBody response;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginObject()
                    .name("jsonrpc")
                    .string("2.0")
                    .name("id")
                    .raw("1")
                    .name("result")
                    .beginArray();
            for (int i = 0; i < pool.blobs().length; i++) {
                b.beginObject()
                        .name("blob")
                        .hex(pool.blobs()[i])
                        .name("proofs")
                        .hexArray(pool.cellProofs()[i], 0, BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)
                        .endObject();
            }
            response = b.endArray().endObject().build();
        }
        byte[] bytes = new byte[Math.toIntExact(response.length())];
        JsonBodyInput input = new JsonBodyInput(response);
        try {
            int at = 0;
            for (ByteBuf chunk; (chunk = input.readChunk(UnpooledByteBufAllocator.DEFAULT)) != null; ) {
                int n = chunk.readableBytes();
                chunk.readBytes(bytes, at, n);
                at += n;
                chunk.release();
            }
        } finally {
            input.close();
        }
        return bytes;
    }

    /**
     * Teku's engine client's {@code ObjectMapper}, built as {@code AbstractExecutionEngineClient}'s constructor builds
     * it.
     */
    public static ObjectMapper tekuObjectMapper() {
        return JsonMapper.builder()
                .addModule(new BlackbirdModule())
                .configure(JsonParser.Feature.ALLOW_UNQUOTED_FIELD_NAMES, true)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .build();
    }

    /**
     * Teku's {@code doRequest} on a successful reply: the tree, the {@code error} member looked at, then the
     * {@code result} node bound to {@code List<BlobAndProofV2>}, or {@code null} for a missing or {@code null} result.
     */
    public static List<TekuBlobAndProofV2> tekuRead(ObjectMapper teku, InputStream body) throws IOException {
        JsonNode response = teku.readTree(body);
        JsonNode error = response.get("error");
        if (error != null && !error.isNull()) {
            throw new IOException("JSON-RPC error " + error.path("code").asInt() + ": " + error.path("message"));
        }
        JsonNode result = response.get("result");
        JavaType type = teku.getTypeFactory().constructCollectionType(List.class, TekuBlobAndProofV2.class);
        return result == null || result.isNull() ? null : teku.treeToValue(result, type);
    }

    @Benchmark
    public void tekuTree(Blackhole bh) throws IOException {
        consume(bh, tekuRead(teku, new ByteArrayInputStream(body)));
    }

    @Benchmark
    public void tekuStream(Blackhole bh) throws IOException {
        TekuResponse response = tekuResponse.readValue(new ByteArrayInputStream(body));
        consume(bh, response.result());
    }

    @Benchmark
    public List<TekuBlobAndProofV2> tekuReadValue() throws IOException {
        return teku.readValue(resultJson, tekuResultList);
    }

    @Benchmark
    public void wholeString(Blackhole bh) throws IOException {
        String text = new String(body, StandardCharsets.UTF_8);
        JsonNode result = teku.readTree(text).get("result");
        for (JsonNode entry : result) {
            bh.consume(HexDecoder.decode(entry.get("blob").textValue()));
            for (JsonNode proof : entry.get("proofs")) {
                bh.consume(HexDecoder.decode(proof.textValue()));
            }
        }
    }

    @Benchmark
    public void hexModule(Blackhole bh) throws IOException {
        Response response = hexResponse.readValue(new ByteArrayInputStream(body));
        for (BlobAndProofV2 entry : response.result()) {
            bh.consume(entry.blob());
            for (Bytes48 proof : entry.proofs()) {
                bh.consume(proof);
            }
        }
    }

    /**
     * The least any deserializer on Jackson 2's streaming parser does: every token read and every string finished (its
     * characters into the parser's {@code TextBuffer}, as {@code getText(Writer)}, {@code getTextCharacters()} and
     * {@code getText()} all do first), nothing decoded, nothing bound.
     */
    @Benchmark
    public long jacksonScan() throws IOException {
        long characters = 0;
        try (JsonParser parser = hex.getFactory().createParser(new ByteArrayInputStream(body))) {
            for (JsonToken token; (token = parser.nextToken()) != null; ) {
                if (token == JsonToken.VALUE_STRING) {
                    characters += parser.getTextLength();
                }
            }
        }
        return characters;
    }

    @Benchmark
    public void hexModuleByteArrays(Blackhole bh) throws IOException {
        RawResponse response = rawResponse.readValue(new ByteArrayInputStream(body));
        for (RawBlobAndProofV2 entry : response.result()) {
            bh.consume(entry.blob());
            for (byte[] proof : entry.proofs()) {
                bh.consume(proof);
            }
        }
    }

    @Benchmark
    public List<byte[]> readV2(Blackhole bh) throws IOException {
        return GetBlobsResponses.readV2(new ByteArrayInputStream(body), blobs, (blob, proofs) -> {
            bh.consume(proofs);
            return blob;
        });
    }

    @Benchmark
    public long hexstreamReader() {
        EntryReader entries = new EntryReader(pooled);
        JsonHexReader reader = new JsonHexReader(entries);
        try {
            for (ByteBuf chunk : chunks) {
                reader.feed(chunk);
                chunk.readerIndex(0);
            }
            reader.end();
        } finally {
            entries.release();
        }
        return entries.sum;
    }

    /**
     * A getBlobsV2 consumer: at depth 3 (an entry of {@code result}) the blob and the proofs go into two pooled direct
     * buffers; at the entry's end both are handed over, here summed and released.
     */
    static final class EntryReader implements JsonTokenListener {
        private final ByteBufAllocator allocator;
        private int depth;
        private ByteBuf blob;
        private ByteBuf proofs;
        long sum;

        EntryReader(ByteBufAllocator allocator) {
            this.allocator = allocator;
        }

        @Override
        public void beginObject() {
            if (++depth == 3) {
                blob = allocator.directBuffer(BlobSizes.BLOB_SIZE);
                proofs = allocator.directBuffer(BlobSizes.CELL_PROOFS_SIZE);
            }
        }

        @Override
        public void endObject() {
            if (depth-- == 3) {
                sum += blob.getByte(0) + proofs.getByte(BlobSizes.CELL_PROOFS_SIZE - 1);
                release();
            }
        }

        @Override
        public void beginArray() {
            depth++;
        }

        @Override
        public void endArray() {
            depth--;
        }

        @Override
        public void stringStart(StringValue value) {
            if (depth == 3 && "blob".contentEquals(value.name())) {
                value.hex(blob, BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE);
            } else if (depth == 4) {
                value.hex(proofs, BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
            }
        }

        void release() {
            if (blob != null) {
                blob.release();
                proofs.release();
                blob = null;
                proofs = null;
            }
        }
    }

    private static void consume(Blackhole bh, List<TekuBlobAndProofV2> result) {
        for (TekuBlobAndProofV2 entry : result) {
            bh.consume(entry.blob());
            for (Bytes48 proof : entry.proofs()) {
                bh.consume(proof);
            }
        }
    }
}
