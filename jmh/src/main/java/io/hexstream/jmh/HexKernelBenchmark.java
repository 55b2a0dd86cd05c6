package io.hexstream.jmh;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
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
 * The portable kernels side by side, bare digits of {@code inputSize} fixed-seed random bytes (the seed's sizes): into
 * a reused {@code byte[]} ({@code table} — the codec's loop before — {@code pair2}, {@code pair4}, {@code pair8},
 * {@code pair8Wide}, {@code swar4}, {@code swar8}, {@code arithmeticShorts} (whether C2 auto-vectorizes hex), and
 * {@code codec}, what {@code Hex} runs now) and into a reused direct buffer ({@code *Direct}). Run it without the
 * Vector API (the default here) to choose the portable kernel; {@code codec} then shows {@code Hex.kernel()}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HexKernelBenchmark {
    @Param({"137216", "1234944", "2881536", "9879552", "17563648"})
    public int inputSize;

    private byte[] input;
    private byte[] output;
    private ByteBuffer direct;
    private ByteBuffer directLittleEndian;
    private ByteBuf directBuf;

    @Setup(Level.Trial)
    public void setUp() {
        input = new byte[inputSize];
        new Random(0x5EED_0000L + inputSize).nextBytes(input);
        output = new byte[2 * inputSize];
        direct = ByteBuffer.allocateDirect(2 * inputSize);
        directLittleEndian = ByteBuffer.allocateDirect(2 * inputSize).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        directBuf = Unpooled.directBuffer(2 * inputSize, 2 * inputSize);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        directBuf.release();
    }

    @Benchmark
    public byte[] table() {
        HexKernelCandidates.table(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] arithmeticShorts() {
        HexKernelCandidates.arithmeticShorts(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] pair2() {
        HexKernelCandidates.pair2(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] pair4() {
        HexKernelCandidates.pair4(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] pair8() {
        HexKernelCandidates.pair8(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] pair8Wide() {
        HexKernelCandidates.pair8Wide(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] swar4() {
        HexKernelCandidates.swar4(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] swar8() {
        HexKernelCandidates.swar8(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public byte[] codec() {
        Hex.encode(input, 0, inputSize, output, 0, false);
        return output;
    }

    @Benchmark
    public ByteBuffer pair8Direct() {
        HexKernelCandidates.pair8Buffer(input, 0, inputSize, direct, 0);
        return direct;
    }

    @Benchmark
    public ByteBuffer swar8Direct() {
        HexKernelCandidates.swar8Buffer(input, 0, inputSize, direct, 0);
        return direct;
    }

    @Benchmark
    public byte[] pair16() {
        HexKernelCandidates.pair16(input, 0, inputSize, output, 0);
        return output;
    }

    @Benchmark
    public ByteBuffer swar8PutDirect() {
        HexKernelCandidates.swar8Put(input, 0, inputSize, direct, 0);
        return direct;
    }

    @Benchmark
    public ByteBuffer pair8PutDirect() {
        HexKernelCandidates.pair8Put(input, 0, inputSize, directLittleEndian, 0);
        return directLittleEndian;
    }

    @Benchmark
    public ByteBuffer pair4ScratchDirect() {
        HexKernelCandidates.pair4Scratch(input, 0, inputSize, direct, 0);
        return direct;
    }

    @Benchmark
    public ByteBuf codecDirect() {
        directBuf.writerIndex(0);
        Hex.encode(input, 0, inputSize, directBuf, false);
        return directBuf;
    }
}
