package io.hexstream.codec;

/**
 * The kernel that encodes the bulk of every input in {@link Hex} and decodes runs of digit pairs in
 * {@link HexDecoder#decodeDigits}; which one runs is fixed when {@code Hex} is loaded and named by
 * {@link Hex#kernel()}. Both write exactly the digits of the 512-entry table (lowercase, high digit first); tails
 * shorter than a kernel's step go through the pair table (decoding: a 256-entry digit table).
 */
public enum HexKernel {
    /**
     * SIMD lanes through {@code jdk.incubator.vector}: 16 or 32 input bytes a step, about the speed of copying the
     * output. Chosen when the JVM resolved the module ({@code --add-modules jdk.incubator.vector}), its preferred
     * vectors are 256 bits or wider, and the system property {@link Hex#VECTOR_KERNEL_PROP_NAME} is not {@code false}.
     */
    VECTOR,

    /**
     * Portable Java: the 512-entry table read as 256 two-digit {@code short}s, two input bytes a step stored as one
     * 4-byte {@code int} through a {@code VarHandle} view of the destination. The default wherever the Vector API is
     * not resolved; no {@code sun.misc.Unsafe}.
     */
    PAIR_TABLE
}
