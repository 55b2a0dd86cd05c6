package io.hexstream.jmh;

import io.hexstream.codec.HexDecoder;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The portable decoding kernels that {@link HexDecodeKernelBenchmark} weighs against the one {@code HexDecoder} ships
 * (two 256-entry tables a pair). Each has {@code HexDecoder.decodeDigits(byte[], int, int, byte[], int)}'s contract,
 * counted in pairs: it decodes the longest run of digit pairs ({@code [0-9a-fA-F]}, high digit first) at the start of
 * {@code src[srcOffset, srcOffset + 2 * pairs)} into {@code dst} from {@code dstOffset} and returns how many it
 * decoded. They exist only to be measured. Bounds are the caller's; tails shorter than a kernel's step, and a step
 * holding a non-digit, go through {@code HexDecoder}'s loop.
 */
final class HexDecodeKernelCandidates {
    /**
     * Entry {@code first | second << 8} (a pair as a little-endian {@code short}): the pair's byte, or {@code 0x100}
     * when either is not a digit. 256 KiB, of which valid pairs touch 66 cache lines.
     */
    private static final int[] PAIR_VALUES = new int[65536];

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long LOW_NIBBLES = 0x0F0F0F0F0F0F0F0FL;
    private static final long ONES = 0x0101010101010101L;

    /** Digits per block of {@link #arithmeticBlocks}. */
    private static final int BLOCK = 4096;

    static {
        for (int p = 0; p < 65536; p++) {
            int high = HexDecoder.digit(p & 0xFF);
            int low = HexDecoder.digit(p >>> 8);
            PAIR_VALUES[p] = (high | low) < 0 ? 0x100 : high << 4 | low;
        }
    }

    private HexDecodeKernelCandidates() {}

    /** One {@code long} load of four pairs, one 65,536-entry table load a pair, one 4-byte store. */
    static int pairTable(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset) {
        final int[] values = PAIR_VALUES;
        int done = 0;
        int i = srcOffset;
        for (; pairs - done >= 4; done += 4, i += 8) {
            long x = (long) LONG_LE.get(src, i);
            int v0 = values[(int) x & 0xFFFF];
            int v1 = values[(int) (x >>> 16) & 0xFFFF];
            int v2 = values[(int) (x >>> 32) & 0xFFFF];
            int v3 = values[(int) (x >>> 48)];
            if (((v0 | v1 | v2 | v3) & 0x100) != 0) {
                break;
            }
            INT_LE.set(dst, dstOffset + done, v0 | v1 << 8 | v2 << 16 | v3 << 24);
        }
        return done + tail(src, i, pairs - done, dst, dstOffset + done);
    }

    /** 64-bit SWAR: sixteen digits in two {@code long}s validated and converted by arithmetic, two 4-byte stores. */
    static int swar16(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset) {
        int done = 0;
        int i = srcOffset;
        for (; pairs - done >= 8; done += 8, i += 16) {
            long x = (long) LONG_LE.get(src, i);
            long y = (long) LONG_LE.get(src, i + 8);
            if ((digits(x) & digits(y)) != HIGH_BITS) {
                break;
            }
            INT_LE.set(dst, dstOffset + done, packed(x));
            INT_LE.set(dst, dstOffset + done + 4, packed(y));
        }
        return done + tail(src, i, pairs - done, dst, dstOffset + done);
    }

    /**
     * Branch-free arithmetic in the shape C2's auto-vectorizer (SuperWord) takes, a block at a time: a counted,
     * unit-stride loop turns each digit into its value and ORs a fault mark into an accumulator; the values are then
     * paired eight at a time by 64-bit arithmetic. A block holding a non-digit is redone by the codec's loop. Were the
     * first loop vectorized on the JDK at hand, this would beat the scalar kernels without the Vector API.
     */
    static int arithmeticBlocks(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset) {
        byte[] values = new byte[BLOCK];
        int done = 0;
        while (pairs - done >= BLOCK / 2) {
            int from = srcOffset + 2 * done;
            int fault = 0;
            for (int k = 0; k < BLOCK; k++) {
                int c = src[from + k];
                int letter = c | 0x20;
                // Negative exactly when c is neither '0'-'9' nor a letter 'a'-'f' in either case.
                fault |= ((c - '0') | ('9' - c)) & ((letter - 'a') | ('f' - letter));
                values[k] = (byte) ((c & 0xF) + 9 * ((c >> 6) & 1));
            }
            if (fault < 0) {
                break;
            }
            for (int k = 0; k < BLOCK; k += 8) {
                INT_LE.set(dst, dstOffset + done + k / 2, pairedValues((long) LONG_LE.get(values, k)));
            }
            done += BLOCK / 2;
        }
        return done + tail(src, srcOffset + 2 * done, pairs - done, dst, dstOffset + done);
    }

    /** The pairs after a kernel's last whole step, or from the step that held a non-digit: the codec's loop. */
    private static int tail(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset) {
        return HexDecoder.decodeDigits(src, srcOffset, 2 * pairs, dst, dstOffset);
    }

    /** {@code 0x80} in each byte of {@code x} that is a hex digit, {@code 0} in every other byte. */
    private static long digits(long x) {
        long decimal = (x + 0x5050505050505050L) & ~(x + 0x4646464646464646L);
        long letter = x | 0x2020202020202020L;
        long alpha = (letter + 0x1F1F1F1F1F1F1F1FL) & ~(letter + 0x1919191919191919L);
        return (decimal | alpha) & ~x & HIGH_BITS;
    }

    /** Eight validated digits (little-endian, high digit of each pair first) as four bytes. */
    private static int packed(long x) {
        long letter = (x >>> 6) & ONES;
        return pairedValues((x & LOW_NIBBLES) + letter + (letter << 3));
    }

    /** Eight digit values (one a byte, little-endian, high digit of each pair first) as four bytes. */
    private static int pairedValues(long v) {
        long t = ((v << 4) & 0x00F000F000F000F0L) | ((v >>> 8) & 0x000F000F000F000FL);
        t = (t | (t >>> 8)) & 0x0000FFFF0000FFFFL;
        return (int) (t | (t >>> 16));
    }
}
