package io.hexstream.jmh;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.tuweni.bytes.Bytes;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Hex-encoding one getBlobsV2 payload's worth of bytes ({@code inputSize}: 1, 9, 21, 72 and 128 blobs with their 128
 * cell proofs, the seed's sizes) with {@code 0x} prefix, every peer side by side. Input is fixed-seed random data.
 * {@code charArray} is Besu's path (the seed's change:
 * {@code ethereum/core/src/main/java/org/hyperledger/besu/ethereum/core/encoding/HexUtils.java}-style {@code char[]}
 * table, then {@code new String}), {@code tuweni} its predecessor ({@code org.apache.tuweni.bytes.Bytes.toFastHex}).
 * Without JVM options the codec runs its portable kernel; add {@code -jvmArgsAppend --add-modules=jdk.incubator.vector}
 * for SIMD.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 3,
        jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ToFastHexBenchmark {
    /** Bytes per pooled direct buffer in {@link #hexstreamDirectByteBuf}: 64 KiB. */
    private static final int CHUNK = 64 * 1024;

    private static final HexFormat HEX_FORMAT = HexFormat.of();

    @Param({"137216", "1234944", "2881536", "9879552", "17563648"})
    public int inputSize;

    private byte[] input;
    private Bytes[] tuweniMix;
    private int tuweniNext;
    private byte[] output;
    private byte[] floorSource;
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;

    @Setup(Level.Trial)
    public void setUp() {
        input = new byte[inputSize];
        new Random(0x5EED_0000L + inputSize).nextBytes(input);
        // Three implementations of Bytes, as Besu's callers pass them: megamorphic get/size.
        tuweniMix = new Bytes[] {
            Bytes.wrap(input), Bytes.wrapByteBuffer(ByteBuffer.wrap(input)), Bytes.repeat((byte) 0x5a, inputSize)
        };
        output = new byte[Hex.encodedLength(inputSize, true)];
        floorSource = new byte[output.length];
        new Random(1).nextBytes(floorSource);
    }

    @Benchmark
    public String tuweni() {
        Bytes bytes = tuweniMix[tuweniNext];
        tuweniNext = tuweniNext == 2 ? 0 : tuweniNext + 1;
        return bytes.toFastHex(true);
    }

    @Benchmark
    public String charArray() {
        return BesuHex.toFastHex(input, true);
    }

    /**
     * {@code java.util.HexFormat}'s fastest way to a prefixed String: {@code formatHex(byte[])} (its fast path builds
     * the Latin-1 bytes and wraps them without a copy), then one concatenation with {@code "0x"}. Appending to a
     * builder that already holds {@code "0x"} ({@code formatHex(Appendable, byte[])}) saves that copy but takes the
     * char-by-char path: measured here three times slower on JDK 17 (1.36 ms against 0.41 ms at 137216 bytes).
     */
    @Benchmark
    public String hexFormat() {
        return "0x" + HEX_FORMAT.formatHex(input);
    }

    @Benchmark
    public String nettyHexDump() {
        return ByteBufUtil.hexDump(input);
    }

    @Benchmark
    public String hexstreamString() {
        return Hex.encodeToString(input, true);
    }

    @Benchmark
    public byte[] hexstreamBytes() {
        Hex.encode(input, 0, input.length, output, 0, true);
        return output;
    }

    /** As the streaming body does it: fill pooled direct 64 KiB buffers one after another, release each. */
    @Benchmark
    public void hexstreamDirectByteBuf(Blackhole blackhole) {
        int done = 0;
        boolean first = true;
        while (done < input.length) {
            ByteBuf chunk = pooled.directBuffer(CHUNK, CHUNK);
            try {
                int room = (CHUNK - (first ? 2 : 0)) / 2;
                int n = Math.min(room, input.length - done);
                Hex.encode(input, done, n, chunk, first);
                blackhole.consume(chunk.getByte(chunk.writerIndex() - 1));
                done += n;
                first = false;
            } finally {
                chunk.release();
            }
        }
    }

    /** Copying an output-sized array: the memory-bandwidth floor no encoder can beat. */
    @Benchmark
    public byte[] arraycopyFloor() {
        System.arraycopy(floorSource, 0, output, 0, output.length);
        return output;
    }
}
