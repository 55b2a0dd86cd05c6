package io.hexstream.codec.tuweni;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import org.apache.tuweni.bytes.Bytes;

/**
 * {@link Hex} for tuweni {@link Bytes} (Besu's byte type): one {@code toArrayUnsafe()} per call, then the array code
 * only, never the per-byte {@code get}/{@code size} interface calls that go megamorphic in Besu. A class of its own
 * because tuweni is an optional dependency: code that never names {@code Bytes} compiles and runs against {@link Hex}
 * without it.
 */
public final class TuweniHex {
    private TuweniHex() {}

    /** {@code src} as lowercase hex, {@code 0x}-prefixed when {@code prefix}. */
    public static String encodeToString(Bytes src, boolean prefix) {
        return Hex.encodeToString(src.toArrayUnsafe(), prefix);
    }

    /**
     * {@code src} as hex into {@code dst} at its writer index, as {@link Hex#encode(byte[], int, int, ByteBuf,
     * boolean)}.
     */
    public static int encode(Bytes src, ByteBuf dst, boolean prefix) {
        byte[] array = src.toArrayUnsafe();
        return Hex.encode(array, 0, array.length, dst, prefix);
    }
}
