package io.hexstream.codec;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The SIMD kernel, used by {@link Hex} only when the JVM was started with
 * {@code --add-modules jdk.incubator.vector} (this class is never loaded otherwise). Each step widens
 * half a vector of input bytes to 16-bit lanes, puts the high nibble in a lane's low byte and the low
 * nibble in its high byte, maps both to ASCII with the same carry-free arithmetic as the scalar SWAR
 * path, and stores the lanes as bytes: one full vector of digits per half vector of input.
 */
final class HexVector {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BYTES =
            ByteVector.SPECIES_PREFERRED.withShape(VectorShape.forBitSize(SHORTS.vectorBitSize() / 2));

    /** Input bytes per step. */
    static final int STEP = BYTES.length();

    private HexVector() {}

    /** Whether the preferred vectors are wide enough (256 bits) for this kernel to beat the table. */
    static boolean usable() {
        return SHORTS.vectorBitSize() >= 256;
    }

    /** Encodes the longest prefix of the region that is a multiple of {@link #STEP}; returns its length. */
    static int encode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int bulk = length - length % STEP;
        for (int i = 0; i < bulk; i += STEP) {
            ShortVector lanes = (ShortVector) ByteVector.fromArray(BYTES, src, srcOffset + i)
                    .convertShape(VectorOperators.B2S, SHORTS, 0);
            ShortVector unsigned = lanes.and((short) 0xFF);
            ShortVector nibbles = unsigned.lanewise(VectorOperators.LSHR, 4)
                    .or(unsigned.and((short) 0x0F).lanewise(VectorOperators.LSHL, 8));
            ShortVector letters = nibbles.add((short) 0x0606).lanewise(VectorOperators.LSHR, 4)
                    .and((short) 0x0101);
            nibbles.add((short) 0x3030).add(letters.mul((short) 39))
                    .reinterpretAsBytes().intoArray(dst, dstOffset + 2 * i);
        }
        return bulk;
    }
}
