package example;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.tuweni.TuweniHex;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.tuweni.bytes.Bytes;

/** Encoding and strict decoding, into and out of any buffer. */
public final class HexExample {
    private HexExample() {}

    /** The first example of codec/README.md. */
    public static String roundTrip(byte[] blob, Bytes commitment, String versionedHash) {
        ByteBuf out = ByteBufAllocator.DEFAULT.directBuffer();
        try {
            Hex.encode(blob, 0, blob.length, out, true); // "0x…" written at out.writerIndex()
            TuweniHex.encode(commitment, out, true); // tuweni Bytes, the same way
            byte[] hash = HexDecoder.decode(versionedHash, 32); // exactly 32 bytes, or HexFormatException
            return Hex.encodeToString(hash, false) + " " + out.readableBytes(); // no prefix; bytes written
        } finally {
            out.release();
        }
    }
}
