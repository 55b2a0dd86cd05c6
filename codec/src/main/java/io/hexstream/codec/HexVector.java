package io.hexstream.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The SIMD kernel, used by {@link Hex} only when the JVM was started with {@code --add-modules jdk.incubator.vector}
 * (this class is never loaded otherwise). Each step widens half a vector of input bytes to 16-bit lanes, puts the high
 * nibble in a lane's low byte and the low nibble in its high byte, maps both to ASCII with the same carry-free
 * arithmetic as the scalar SWAR path, and stores the lanes as bytes: one full vector of digits per half vector of
 * input. Decoding ({@link #decode}) runs the other way, a full vector of digits to half a vector of bytes.
 */
final class HexVector {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BYTES =
            ByteVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(SHORTS.vectorBitSize() / 2));
    /** A full vector of bytes: the digits one decoding step reads. */
    private static final VectorSpecies<Byte> DIGITS = ByteVector.SPECIES_PREFERRED.withShape(SHORTS.vectorShape());

    /** Input bytes per step. */
    static final int STEP = BYTES.length();

    /**
     * Whether lanes can be stored straight into a {@link ByteBuffer}: {@code intoByteBuffer} exists in the incubator
     * API of JDK 16 to 18; JDK 19 replaced it with {@code intoMemorySegment}, which code compiled for Java 17 cannot
     * name. Where false, {@link #encode(byte[], int, int, ByteBuffer, int)} is never called (its call to the missing
     * method is never linked).
     */
    static final boolean BUFFER_STORES = hasIntoByteBuffer();

    private HexVector() {}

    /** Whether the preferred vectors are wide enough (256 bits) for this kernel to beat the table. */
    static boolean usable() {
        return SHORTS.vectorBitSize() >= 256;
    }

    /** Encodes the longest prefix of the region that is a multiple of {@link #STEP}; returns its length. */
    static int encode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        return encode(src, srcOffset, length, dst, null, dstOffset);
    }

    /**
     * As {@link #encode(byte[], int, int, byte[], int)}, storing at absolute index {@code dstIndex} of {@code dst}
     * (heap or direct; position and limit untouched). Only when {@link #BUFFER_STORES}.
     */
    static int encode(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstIndex) {
        return encode(src, srcOffset, length, null, dst, dstIndex);
    }

    /**
     * One loop for both destinations, {@code array} if it is not null, else {@code buffer}: the test is loop-invariant,
     * so the JIT unswitches it. The whole step stays in the loop body on purpose: a vector handed across a call that C2
     * does not inline is boxed on the heap (measured: 40 MiB per 128-blob body with the step in a helper method).
     */
    private static int encode(byte[] src, int srcOffset, int length, byte[] array, ByteBuffer buffer, int index) {
        int bulk = length - length % STEP;
        for (int i = 0; i < bulk; i += STEP) {
            ShortVector lanes = (ShortVector)
                    ByteVector.fromArray(BYTES, src, srcOffset + i).convertShape(VectorOperators.B2S, SHORTS, 0);
            ShortVector unsigned = lanes.and((short) 0xFF);
            ShortVector nibbles = unsigned.lanewise(VectorOperators.LSHR, 4)
                    .or(unsigned.and((short) 0x0F).lanewise(VectorOperators.LSHL, 8));
            ShortVector letters = nibbles.add((short) 0x0606)
                    .lanewise(VectorOperators.LSHR, 4)
                    .and((short) 0x0101);
            ByteVector digits =
                    nibbles.add((short) 0x3030).add(letters.mul((short) 39)).reinterpretAsBytes();
            if (array != null) {
                digits.intoArray(array, index + 2 * i);
            } else {
                digits.intoByteBuffer(buffer, index + 2 * i, ByteOrder.LITTLE_ENDIAN);
            }
        }
        return bulk;
    }

    /**
     * Decodes whole steps of digit pairs from {@code src[srcOffset]}, at most {@code pairs} pairs, one output byte per
     * pair into {@code dst} from {@code dstOffset}; stops before the first step holding a byte other than
     * {@code [0-9a-fA-F]}. Returns the number of pairs decoded, a multiple of {@link #STEP}. Bounds are the caller's.
     * Each lane maps to a nibble by arithmetic: {@code c - '0'} for a decimal digit, {@code (c | 0x20) - 'a' + 10} for
     * a letter of either case. Signed compares only: the unsigned ones are named differently in the incubator API of
     * JDK 17 and of JDK 25.
     */
    static int decode(byte[] src, int srcOffset, int pairs, byte[] dst, int dstOffset) {
        int bulk = pairs - pairs % STEP;
        int i = 0;
        for (; i < bulk; i += STEP) {
            ByteVector chars = ByteVector.fromArray(DIGITS, src, srcOffset + 2 * i);
            ByteVector lower = chars.or((byte) 0x20);
            VectorMask<Byte> isDecimal =
                    chars.compare(VectorOperators.GE, (byte) '0').and(chars.compare(VectorOperators.LE, (byte) '9'));
            VectorMask<Byte> isLetter =
                    lower.compare(VectorOperators.GE, (byte) 'a').and(lower.compare(VectorOperators.LE, (byte) 'f'));
            if (!isDecimal.or(isLetter).allTrue()) {
                break;
            }
            ShortVector nibbles = chars.sub((byte) '0')
                    .blend(lower.sub((byte) ('a' - 10)), isLetter)
                    .reinterpretAsShorts();
            // Memory order: a lane's low byte is the high digit.
            ShortVector values = nibbles.and((short) 0x0F)
                    .lanewise(VectorOperators.LSHL, 4)
                    .or(nibbles.lanewise(VectorOperators.LSHR, 8));
            ((ByteVector) values.convertShape(VectorOperators.S2B, BYTES, 0)).intoArray(dst, dstOffset + i);
        }
        return i;
    }

    private static boolean hasIntoByteBuffer() {
        try {
            ByteVector.class.getMethod("intoByteBuffer", ByteBuffer.class, int.class, ByteOrder.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
