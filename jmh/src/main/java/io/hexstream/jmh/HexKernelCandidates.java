package io.hexstream.jmh;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The portable hex kernels that {@link HexKernelBenchmark} weighs against the one {@code Hex} ships: each writes the
 * bare digits of {@code src[srcOffset, srcOffset + length)} from {@code dstOffset}, identical to the 512-entry table's
 * output. They exist only to be measured; the winner lives in the codec. Bounds are the caller's; tails shorter than a
 * kernel's step go through the byte loop.
 */
final class HexKernelCandidates {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** Entry {@code 2b}, {@code 2b+1}: the two digits of byte {@code b}, as the codec defines it. */
    static final byte[] TABLE = new byte[512];

    /** Entry {@code b}: both digits of {@code b} as one little-endian {@code short} (high digit first in memory). */
    static final short[] PAIRS = new short[256];

    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BUF_LONG_LE =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BUF_LONG_BE =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    static {
        for (int b = 0; b < 256; b++) {
            TABLE[2 * b] = DIGITS[b >>> 4];
            TABLE[2 * b + 1] = DIGITS[b & 0xF];
            PAIRS[b] = (short) (DIGITS[b >>> 4] | DIGITS[b & 0xF] << 8);
        }
    }

    private HexKernelCandidates() {}

    /** Two table loads and two byte stores per byte (today's codec loop). */
    static void table(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final byte[] table = TABLE;
        for (int i = srcOffset, end = srcOffset + length, d = dstOffset; i < end; i++, d += 2) {
            int t = (src[i] & 0xFF) << 1;
            dst[d] = table[t];
            dst[d + 1] = table[t + 1];
        }
    }

    /** One pair load and one 2-byte store per byte. */
    static void pair2(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        for (int i = srcOffset, end = srcOffset + length, d = dstOffset; i < end; i++, d += 2) {
            SHORT_LE.set(dst, d, pairs[src[i] & 0xFF]);
        }
    }

    /** Two pair loads, one 4-byte store per two bytes. */
    static void pair4(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~1;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 2, d += 4) {
            INT_LE.set(dst, d, (pairs[src[i] & 0xFF] & 0xFFFF) | pairs[src[i + 1] & 0xFF] << 16);
        }
        table(src, i, length - bulk, dst, d);
    }

    /** Four pair loads, one 8-byte store per four bytes. */
    static void pair8(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~3;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 4, d += 8) {
            LONG_LE.set(dst, d, pairs4(pairs, src, i));
        }
        table(src, i, length - bulk, dst, d);
    }

    /** Eight pair loads, two 8-byte stores per eight bytes, the pairs gathered from one 8-byte load. */
    static void pair8Wide(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~7;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 8, d += 16) {
            long x = (long) LONG_LE.get(src, i);
            LONG_LE.set(
                    dst,
                    d,
                    (pairs[(int) x & 0xFF] & 0xFFFFL)
                            | (pairs[(int) (x >>> 8) & 0xFF] & 0xFFFFL) << 16
                            | (pairs[(int) (x >>> 16) & 0xFF] & 0xFFFFL) << 32
                            | (long) pairs[(int) (x >>> 24) & 0xFF] << 48);
            LONG_LE.set(
                    dst,
                    d + 8,
                    (pairs[(int) (x >>> 32) & 0xFF] & 0xFFFFL)
                            | (pairs[(int) (x >>> 40) & 0xFF] & 0xFFFFL) << 16
                            | (pairs[(int) (x >>> 48) & 0xFF] & 0xFFFFL) << 32
                            | (long) pairs[(int) (x >>> 56) & 0xFF] << 48);
        }
        table(src, i, length - bulk, dst, d);
    }

    /** Pair-table, four pairs into one 8-byte store into a (direct) {@link ByteBuffer} at absolute indices. */
    static void pair8Buffer(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~3;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 4, d += 8) {
            BUF_LONG_LE.set(dst, d, pairs4(pairs, src, i));
        }
        for (int end = srcOffset + length; i < end; i++, d += 2) {
            dst.put(d, TABLE[(src[i] & 0xFF) << 1]);
            dst.put(d + 1, TABLE[((src[i] & 0xFF) << 1) + 1]);
        }
    }

    private static long pairs4(short[] pairs, byte[] src, int i) {
        return (pairs[src[i] & 0xFF] & 0xFFFFL)
                | (pairs[src[i + 1] & 0xFF] & 0xFFFFL) << 16
                | (pairs[src[i + 2] & 0xFF] & 0xFFFFL) << 32
                | (long) pairs[src[i + 3] & 0xFF] << 48;
    }

    /** Input bytes per block of {@link #arithmeticShorts}. */
    private static final int ARITHMETIC_BLOCK = 4096;

    /**
     * Branch-free arithmetic in the one shape C2's auto-vectorizer (SuperWord) takes: a counted loop, unit stride, no
     * table, a {@code byte} load and a {@code short} store per input byte (both digits), into a block of
     * {@code short}s; each block is then bulk-copied into {@code dst} through a little-endian {@code ShortBuffer} view.
     * Were the loop vectorized, this would beat every scalar kernel without the Vector API.
     */
    static void arithmeticShorts(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        short[] block = new short[ARITHMETIC_BLOCK];
        java.nio.ShortBuffer out = ByteBuffer.wrap(dst, dstOffset, 2 * length)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN)
                .asShortBuffer();
        for (int done = 0; done < length; done += ARITHMETIC_BLOCK) {
            int n = Math.min(ARITHMETIC_BLOCK, length - done);
            int from = srcOffset + done;
            for (int i = 0; i < n; i++) {
                int b = src[from + i] & 0xFF;
                int high = b >>> 4;
                int low = b & 0xF;
                // '0' + n, plus 39 more ('a' - '0' - 10) where n > 9: (9 - n) >> 31 is -1 exactly then.
                int highDigit = high + '0' + ((9 - high) >> 31 & 39);
                int lowDigit = low + '0' + ((9 - low) >> 31 & 39);
                block[i] = (short) (highDigit | lowDigit << 8);
            }
            out.put(done, block, 0, n);
        }
    }

    /** SWAR: four bytes in one {@code int}, eight digits computed in one {@code long}, one 8-byte store. */
    static void swar4(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int bulk = length & ~3;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 4, d += 8) {
            LONG_BE.set(dst, d, digits4((int) INT_BE.get(src, i)));
        }
        table(src, i, length - bulk, dst, d);
    }

    /** SWAR: eight bytes in one {@code long} load, sixteen digits in two 8-byte stores. */
    static void swar8(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int bulk = length & ~7;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 8, d += 16) {
            long x = (long) LONG_BE.get(src, i);
            LONG_BE.set(dst, d, digits4((int) (x >>> 32)));
            LONG_BE.set(dst, d + 8, digits4((int) x));
        }
        table(src, i, length - bulk, dst, d);
    }

    /** SWAR straight into a (direct) {@link ByteBuffer} at absolute indices. */
    static void swar8Buffer(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstOffset) {
        int bulk = length & ~7;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 8, d += 16) {
            long x = (long) LONG_BE.get(src, i);
            BUF_LONG_BE.set(dst, d, digits4((int) (x >>> 32)));
            BUF_LONG_BE.set(dst, d + 8, digits4((int) x));
        }
        for (int end = srcOffset + length; i < end; i++, d += 2) {
            dst.put(d, TABLE[(src[i] & 0xFF) << 1]);
            dst.put(d + 1, TABLE[((src[i] & 0xFF) << 1) + 1]);
        }
    }

    /** SWAR into a (direct) big-endian {@link ByteBuffer} through its absolute {@code putLong}. */
    static void swar8Put(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstOffset) {
        int bulk = length & ~7;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 8, d += 16) {
            long x = (long) LONG_BE.get(src, i);
            dst.putLong(d, digits4((int) (x >>> 32)));
            dst.putLong(d + 8, digits4((int) x));
        }
        for (int end = srcOffset + length; i < end; i++, d += 2) {
            dst.put(d, TABLE[(src[i] & 0xFF) << 1]);
            dst.put(d + 1, TABLE[((src[i] & 0xFF) << 1) + 1]);
        }
    }

    /** Pair table into a (direct) little-endian {@link ByteBuffer} through its absolute {@code putLong}. */
    static void pair8Put(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~3;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 4, d += 8) {
            dst.putLong(d, pairs4(pairs, src, i));
        }
        for (int end = srcOffset + length; i < end; i++, d += 2) {
            dst.put(d, TABLE[(src[i] & 0xFF) << 1]);
            dst.put(d + 1, TABLE[((src[i] & 0xFF) << 1) + 1]);
        }
    }

    /** Pair table, eight bytes an iteration in two independent 8-byte stores. */
    static void pair16(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        final short[] pairs = PAIRS;
        int bulk = length & ~7;
        int i = srcOffset;
        int d = dstOffset;
        for (int end = srcOffset + bulk; i < end; i += 8, d += 16) {
            LONG_LE.set(dst, d, pairs4(pairs, src, i));
            LONG_LE.set(dst, d + 8, pairs4(pairs, src, i + 4));
        }
        table(src, i, length - bulk, dst, d);
    }

    private static final byte[] SCRATCH = new byte[4096];

    /** Pair table into a 4 KiB heap scratch, each block copied into {@code dst} with one absolute bulk put. */
    static void pair4Scratch(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstOffset) {
        byte[] scratch = SCRATCH;
        int per = scratch.length / 2;
        for (int done = 0; done < length; done += per) {
            int k = Math.min(per, length - done);
            pair4(src, srcOffset + done, k, scratch, 0);
            dst.put(dstOffset + 2 * done, scratch, 0, 2 * k);
        }
    }

    /**
     * The eight ASCII digits of the four bytes of {@code x} (most significant first), most significant digit in the
     * most significant byte of the result.
     */
    static long digits4(int x) {
        long v = x & 0xFFFFFFFFL;
        v = (v | v << 16) & 0x0000FFFF0000FFFFL;
        v = (v | v << 8) & 0x00FF00FF00FF00FFL;
        v = (v << 4 | v) & 0x0F0F0F0F0F0F0F0FL;
        long letters = (v + 0x0606060606060606L) >>> 4 & 0x0101010101010101L;
        return v + 0x3030303030303030L + letters * 39;
    }
}
