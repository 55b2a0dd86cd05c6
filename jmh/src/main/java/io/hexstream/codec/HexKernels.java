package io.hexstream.codec;

/**
 * The benchmarks' window onto {@link Hex}'s package-private table kernel, so that the SWAR path is
 * measured against the portable 512-entry table loop in the same run. Lives only in the jmh module.
 */
public final class HexKernels {
    private HexKernels() {}

    /** {@code "0x"} then the table loop; returns the bytes written. */
    public static int encodeWithTable(byte[] src, byte[] dst) {
        dst[0] = '0';
        dst[1] = 'x';
        Hex.encodeTable(src, 0, src.length, dst, 2);
        return 2 + 2 * src.length;
    }
}
