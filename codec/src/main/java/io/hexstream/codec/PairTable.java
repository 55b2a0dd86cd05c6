package io.hexstream.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The portable kernel ({@link HexKernel#PAIR_TABLE}) and the table that defines the output. Entries {@code 2b} and
 * {@code 2b+1} of the 512-byte {@link #TABLE} are the high and low ASCII digit of byte {@code b}; {@link #PAIRS} holds
 * the same 512 bytes as 256 little-endian {@code short}s, so one load yields both digits and two of them make one
 * 4-byte store. Of the kernels measured by the jmh module's {@code HexKernelBenchmark} (byte stores from the table,
 * pair stores of 2, 4 and 8 bytes, 64-bit SWAR arithmetic) this one was the fastest on JDK 17 and 25.
 */
final class PairTable {
    /** Entry {@code 2b}, {@code 2b+1}: the high and low digit of {@code b}. The definition of the output. */
    static final byte[] TABLE = new byte[512];

    /**
     * Entry {@code b}: {@code TABLE[2b] | TABLE[2b+1] << 8}, i.e. both digits in memory order as a little-endian short.
     */
    private static final short[] PAIRS = new short[256];

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        byte[] digits = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
        for (int b = 0; b < 256; b++) {
            TABLE[2 * b] = digits[b >>> 4];
            TABLE[2 * b + 1] = digits[b & 0xF];
            PAIRS[b] = (short) (TABLE[2 * b] & 0xFF | TABLE[2 * b + 1] << 8);
        }
    }

    private PairTable() {}

    /**
     * The digits of {@code src[srcOffset, srcOffset + length)} from {@code dst[dstOffset]}. Bounds are the caller's.
     */
    static void encode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + (length & ~1); i < end; i += 2, d += 4) {
            INT_LE.set(dst, d, pairs[src[i] & 0xFF] & 0xFFFF | pairs[src[i + 1] & 0xFF] << 16);
        }
        if ((length & 1) != 0) {
            SHORT_LE.set(dst, d, pairs[src[i] & 0xFF]);
        }
    }
}
