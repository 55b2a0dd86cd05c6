package io.hexstream.jmh;

/**
 * Besu's {@code char[]} method, {@code ethereum/core/src/main/java/org/hyperledger/besu/ethereum/core/encoding/}
 * {@code HexUtils.java} {@code toFastHex} (the seed's change, "Optimise toFastHex for engine_getBlobsV2", in
 * {@code shared/seeds/}): a 16-entry {@code char[]} table into a {@code char[]}, then {@code new String}. Besu main
 * calls it on every selected cell and cell proof in
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/}
 * {@code jsonrpc/internal/methods/engine/EngineGetBlobsV4.java} (besu-eth/besu
 * {@code 73f7360e72dcae6c73bcfe7ea7778ad8f9abe73c}); its getBlobsV2 and blobs bundle no longer do (see
 * {@link BesuBlobsJson}). Its input is a tuweni {@code Bytes} view, so a region of an array is read in place. A
 * baseline for the benchmarks only.
 */
public final class BesuHex {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private BesuHex() {}

    public static String toFastHex(byte[] bytes, boolean prefix) {
        return toFastHex(bytes, 0, bytes.length, prefix);
    }

    /** {@code bytes[from, from + length)}, as Besu encodes a {@code Bytes} slice such as one cell proof. */
    public static String toFastHex(byte[] bytes, int from, int length, boolean prefix) {
        int offset = prefix ? 2 : 0;
        char[] out = new char[length * 2 + offset];
        if (prefix) {
            out[0] = '0';
            out[1] = 'x';
        }
        for (int i = 0; i < length; i++) {
            int v = bytes[from + i] & 0xFF;
            out[offset + 2 * i] = HEX[v >>> 4];
            out[offset + 2 * i + 1] = HEX[v & 0xF];
        }
        return new String(out);
    }
}
