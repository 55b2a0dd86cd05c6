package io.hexstream.codec.json;

import io.hexstream.codec.Hex;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;

/**
 * Bytes a {@link HexSegment} references rather than copies: a {@code byte[]}, a {@link ByteBuf} or a
 * {@link ByteBuffer}.
 */
abstract class HexSource {

    /**
     * Writes {@code count} bytes from {@code index} (relative to the source) as bare hex digits into {@code out} from
     * its absolute index {@code outIndex}.
     */
    abstract void encode(int index, int count, ByteBuffer out, int outIndex);

    /** Releases the reference the body took, if the source is reference-counted. */
    void release() {}

    /** Records {@code hint} on the source, if it is reference-counted. */
    void touch(Object hint) {}

    static HexSource of(byte[] array, int offset) {
        return new HexSource() {
            @Override
            void encode(int index, int count, ByteBuffer out, int outIndex) {
                Hex.encode(array, offset + index, count, out, outIndex, false);
            }
        };
    }

    /** Takes ownership of one reference to {@code buf}: the caller has retained it for the body. */
    static HexSource of(ByteBuf buf, int index) {
        return new HexSource() {
            @Override
            void encode(int i, int count, ByteBuffer out, int outIndex) {
                if (buf.hasArray()) {
                    Hex.encode(buf.array(), buf.arrayOffset() + index + i, count, out, outIndex, false);
                } else {
                    Hex.encode(buf.nioBuffer(index + i, count), out, outIndex, false);
                }
            }

            @Override
            void release() {
                buf.release();
            }

            @Override
            void touch(Object hint) {
                buf.touch(hint);
            }
        };
    }

    /** {@code buffer} is a private duplicate, so the caller's position and limit are never touched. */
    static HexSource of(ByteBuffer buffer) {
        return new HexSource() {
            @Override
            void encode(int index, int count, ByteBuffer out, int outIndex) {
                Hex.encode(buffer.slice(index, count), out, outIndex, false);
            }
        };
    }
}
