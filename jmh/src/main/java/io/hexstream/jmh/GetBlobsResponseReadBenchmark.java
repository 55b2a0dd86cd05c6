package io.hexstream.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import io.hexstream.server.blob.BlobSizes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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

/**
 * Reading a whole {@code engine_getBlobsV2} response of {@code blobs} blobs (each with 128 cell proofs)
 * into its bytes, the client's side of {@link GetBlobsV2ResponseBenchmark}. The response is the bytes the
 * example server writes ({@code JsonBody} from seeded random blobs), built once per trial. Rows:
 * <ul>
 *   <li>{@code wholeString}: the Lodestar/Prysm shape, the body as one {@code String}, Jackson's
 *       {@code readTree}, then each hex value decoded by {@link HexFormat} from the tree's text;
 *   <li>{@code hexstreamReader}: the response as a socket hands it over, in direct chunks of 64 KiB,
 *       fed to a {@link JsonHexReader} that decodes each blob and its proofs into pooled direct buffers;
 *       each entry is handed over (here: released) as soon as its last byte is decoded.
 * </ul>
 * Every row returns a value of the decoded bytes, so that the JIT cannot drop the work. Run with
 * {@code -prof gc} for allocation. Without JVM options the codec runs its portable kernel; add
 * {@code -jvmArgsAppend --add-modules=jdk.incubator.vector} for SIMD.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 3, jvmArgs = {"-Xms4g", "-Xmx4g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GetBlobsResponseReadBenchmark {
    /** Bytes a socket read hands over at a time. */
    static final int CHUNK = 64 * 1024;
    static final int PROOFS_SIZE = BlobSizes.CELLS_PER_EXT_BLOB * BlobSizes.PROOF_SIZE;

    @Param({"1", "9", "21", "72", "128"})
    public int blobs;

    final ObjectMapper mapper = new ObjectMapper();
    final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;
    /** The whole response, as the example server writes it. */
    byte[] response;
    /** The same bytes in pooled direct chunks of {@link #CHUNK}; each is read from index 0 by every invocation. */
    private ByteBuf[] chunks;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(0x5EED_0000L + blobs);
        JsonBody body;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginObject().name("jsonrpc").string("2.0").name("id").raw("1").name("result").beginArray();
            for (int i = 0; i < blobs; i++) {
                byte[] blob = new byte[BlobSizes.BLOB_SIZE];
                byte[] proofs = new byte[PROOFS_SIZE];
                random.nextBytes(blob);
                random.nextBytes(proofs);
                b.beginObject().name("blob").hex(blob)
                        .name("proofs").hexArray(proofs, 0, BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)
                        .endObject();
            }
            body = b.endArray().endObject().build();
        }
        response = bytes(body);
        chunks = new ByteBuf[(response.length + CHUNK - 1) / CHUNK];
        for (int i = 0; i < chunks.length; i++) {
            int from = i * CHUNK;
            int length = Math.min(CHUNK, response.length - from);
            chunks[i] = pooled.directBuffer(length).writeBytes(response, from, length);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (ByteBuf chunk : chunks) {
            chunk.release();
        }
    }

    /** The bytes {@code body} produces (its reference is taken over). */
    static byte[] bytes(JsonBody body) {
        byte[] out = new byte[Math.toIntExact(body.length())];
        JsonBodyInput input = new JsonBodyInput(body);
        try {
            int at = 0;
            for (ByteBuf chunk; (chunk = input.readChunk(PooledByteBufAllocator.DEFAULT)) != null; ) {
                int n = chunk.readableBytes();
                chunk.readBytes(out, at, n);
                chunk.release();
                at += n;
            }
        } finally {
            input.close();
        }
        return out;
    }

    @Benchmark
    public long wholeString() throws IOException {
        HexFormat hex = HexFormat.of();
        String text = new String(response, StandardCharsets.UTF_8);
        JsonNode tree = mapper.readTree(text);
        long sum = 0;
        for (JsonNode entry : tree.get("result")) {
            String blob = entry.get("blob").textValue();
            sum += hex.parseHex(blob, 2, blob.length())[0];
            for (JsonNode proof : entry.get("proofs")) {
                String p = proof.textValue();
                sum += hex.parseHex(p, 2, p.length())[0];
            }
        }
        return sum;
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
     * A getBlobsV2 consumer: at depth 3 (an entry of {@code result}) the blob and the proofs go into two
     * pooled direct buffers; at the entry's end both are handed over, here summed and released.
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
                proofs = allocator.directBuffer(PROOFS_SIZE);
            }
        }

        @Override
        public void endObject() {
            if (depth-- == 3) {
                sum += blob.getByte(0) + proofs.getByte(PROOFS_SIZE - 1);
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
}
