package io.hexstream.jmh;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The portable decoding kernels side by side: the bare digits of {@code outputSize} fixed-seed random bytes (the seed's
 * sizes; mixed-case digits, as a peer may send) decoded into a reused {@code byte[]}: {@code codec}
 * ({@code HexDecoder.decodeDigits}, two 256-entry tables a pair: what the reader runs, the baseline), {@code pairTable}
 * (a 65,536-entry table indexed by a digit pair, four pairs a {@code long}), {@code swar16} (64-bit arithmetic, sixteen
 * digits a step) and {@code arithmeticBlocks} (whether C2 auto-vectorizes a unit-stride digit loop). Run it without the
 * Vector API (the default here) to choose the portable kernel. Setup checks every kernel's bytes against the random
 * input and where each stops before a non-digit.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 2,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HexDecodeKernelBenchmark {
    @Param({"137216", "1234944", "2881536", "9879552", "17563648"})
    public int outputSize;

    private byte[] digits;
    private byte[] output;

    /** A kernel of {@link HexDecodeKernelCandidates}' shape. */
    private interface Kernel {
        int decode(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset);
    }

    @Setup(Level.Trial)
    public void setUp() {
        byte[] bytes = new byte[outputSize];
        Random random = new Random(0x5EED_0000L + outputSize);
        random.nextBytes(bytes);
        digits = new byte[2 * outputSize];
        Hex.encode(bytes, 0, outputSize, digits, 0, false);
        for (int i = 0; i < digits.length; i++) {
            if (digits[i] >= 'a' && random.nextBoolean()) {
                digits[i] -= 'a' - 'A';
            }
        }
        output = new byte[outputSize];
        Kernel[] kernels = {
            HexDecodeKernelCandidates::pairTable,
            HexDecodeKernelCandidates::swar16,
            HexDecodeKernelCandidates::arithmeticBlocks,
            (src, offset, pairs, dst, dstOffset) -> HexDecoder.decodeDigits(src, offset, 2 * pairs, dst, dstOffset)
        };
        int faultAt = outputSize / 2 + 3;
        byte[] faulty = digits.clone();
        faulty[2 * faultAt + 1] = 'g';
        for (Kernel kernel : kernels) {
            Arrays.fill(output, (byte) 0);
            if (kernel.decode(digits, 0, outputSize, output, 0) != outputSize
                    || !Arrays.equals(output, bytes)
                    || kernel.decode(faulty, 0, outputSize, output, 0) != faultAt) {
                throw new IllegalStateException("a kernel decodes wrongly");
            }
        }
    }

    @Benchmark
    public int pairTable() {
        return HexDecodeKernelCandidates.pairTable(digits, 0, outputSize, output, 0);
    }

    @Benchmark
    public int swar16() {
        return HexDecodeKernelCandidates.swar16(digits, 0, outputSize, output, 0);
    }

    @Benchmark
    public int arithmeticBlocks() {
        return HexDecodeKernelCandidates.arithmeticBlocks(digits, 0, outputSize, output, 0);
    }

    @Benchmark
    public int codec() {
        return HexDecoder.decodeDigits(digits, 0, 2 * outputSize, output, 0);
    }
}
