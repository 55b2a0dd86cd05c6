package io.hexstream.jmh;

/**
 * Today's Besu path for {@code engine_getBlobsV2} (the seed's change): a 16-entry {@code char[]} table
 * into a {@code char[]}, then {@code new String}. A baseline for the benchmarks only.
 */
public final class BesuHex {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private BesuHex() {}

    public static String toFastHex(byte[] bytes, boolean prefix) {
        int offset = prefix ? 2 : 0;
        char[] out = new char[bytes.length * 2 + offset];
        if (prefix) {
            out[0] = '0';
            out[1] = 'x';
        }
        for (int i = 0; i < bytes.length; i++) {
            int v = bytes[i] & 0xFF;
            out[offset + 2 * i] = HEX[v >>> 4];
            out[offset + 2 * i + 1] = HEX[v & 0xF];
        }
        return new String(out);
    }
}
