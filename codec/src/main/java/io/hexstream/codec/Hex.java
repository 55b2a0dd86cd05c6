package io.hexstream.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Lowercase hex encoding into a {@code String}, a {@code byte[]}, a {@link ByteBuffer} or any {@link ByteBuf}:
 * optionally {@code 0x}, then two ASCII digits {@code [0-9a-f]} per input byte, high digit first. Decoding is
 * {@link HexDecoder}'s.
 *
 * <p>Each input byte {@code b} becomes the two ASCII digits of entry {@code b} of a 512-byte table built once. The bulk
 * of every input goes through the fastest kernel the JVM allows, named by {@link #kernel()}: SIMD lanes when it runs
 * with {@code --add-modules jdk.incubator.vector} ({@link HexKernel#VECTOR}, at the speed of a memory copy), otherwise
 * the portable pair-table kernel ({@link HexKernel#PAIR_TABLE}). Nothing here uses {@code sun.misc.Unsafe}.
 *
 * <p>Every encode method writes exactly {@link #encodedLength(int, boolean) encodedLength(n, prefix)} bytes:
 * {@code "0x"} when {@code prefix} is true, then {@code 2n} digits. No method moves a source's indices or changes a
 * reference count.
 */
public final class Hex {
    /**
     * System property that turns the SIMD kernel off: {@code -Dio.hexstream.codec.vector=false} makes
     * {@link HexKernel#PAIR_TABLE} encode everything even where {@link HexKernel#VECTOR} could (to measure or test the
     * portable kernel); any other value, or none, leaves the choice to the JVM. Read once, when {@code Hex} is loaded.
     */
    public static final String VECTOR_KERNEL_PROP_NAME = "io.hexstream.codec.vector";

    /**
     * True when the JVM resolved {@code jdk.incubator.vector} ({@code --add-modules jdk.incubator.vector}), the CPU has
     * vectors of 256 bits or more and {@link #VECTOR_KERNEL_PROP_NAME} is not {@code false}; then the bulk of every
     * input goes through {@link HexVector}. A constant, so the JIT keeps only the branch taken. {@link HexDecoder}
     * decodes by the same switch.
     */
    static final boolean VECTOR =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
                    && !"false".equals(System.getProperty(VECTOR_KERNEL_PROP_NAME))
                    && HexVector.usable();

    /**
     * Whether SIMD lanes go straight into a {@code ByteBuffer}'s memory (JDK 17 and 18; see
     * {@link HexVector#BUFFER_STORES}).
     */
    private static final boolean VECTOR_BUFFER_STORES = VECTOR && HexVector.BUFFER_STORES;

    /**
     * Input bytes from which a direct {@code ByteBuf} destination is worth a view of its memory for straight SIMD
     * stores (a view is two small objects); shorter inputs go through the scratch.
     */
    private static final int VIEW_THRESHOLD = 4096;

    /**
     * Bytes of heap scratch, per thread, through which the portable kernel's digits reach destinations that are not one
     * array (direct and composite buffers): encode into L1-resident scratch, then one bulk copy. In
     * {@code HexKernelBenchmark} this beat storing into a direct {@code ByteBuffer} through a {@code VarHandle} or its
     * {@code putLong} (the view's checks on every store cost more than the copy), and it works for every kind of
     * {@code ByteBuf} alike. SIMD lanes are stored straight into direct memory where the JVM's Vector API can
     * ({@link HexVector#BUFFER_STORES}). Half as many bytes stage a direct source.
     */
    private static final int SCRATCH = 8192;

    private static final FastThreadLocal<byte[]> OUT_SCRATCH = scratch(SCRATCH);
    private static final FastThreadLocal<byte[]> IN_SCRATCH = scratch(SCRATCH / 2);

    private Hex() {}

    /** The kernel encoding the bulk of every input in this JVM; fixed when {@code Hex} is loaded. */
    public static HexKernel kernel() {
        return VECTOR ? HexKernel.VECTOR : HexKernel.PAIR_TABLE;
    }

    /**
     * Number of ASCII bytes that encoding {@code byteLength} bytes produces: {@code 2 * byteLength}, plus 2 for the
     * {@code 0x} prefix.
     *
     * @throws IllegalArgumentException if {@code byteLength} is negative or the result exceeds
     *     {@link Integer#MAX_VALUE}
     */
    public static int encodedLength(int byteLength, boolean prefix) {
        if (byteLength < 0 || byteLength > (Integer.MAX_VALUE - 2) / 2) {
            throw new IllegalArgumentException("cannot hex-encode " + byteLength + " bytes");
        }
        return 2 * byteLength + (prefix ? 2 : 0);
    }

    // ---------------------------------------------------------------- encode to String

    /** {@code src} as lowercase hex, {@code 0x}-prefixed when {@code prefix}. */
    public static String encodeToString(byte[] src, boolean prefix) {
        return encodeToString(src, 0, src.length, prefix);
    }

    /** {@code src[offset, offset + length)} as lowercase hex, {@code 0x}-prefixed when {@code prefix}. */
    public static String encodeToString(byte[] src, int offset, int length, boolean prefix) {
        byte[] ascii = new byte[encodedLength(length, prefix)];
        encode(src, offset, length, ascii, 0, prefix);
        // Latin-1 bytes become the String's compact representation with one copy, no char[] stage.
        return new String(ascii, StandardCharsets.ISO_8859_1);
    }

    /** The remaining bytes of {@code src} (position and limit untouched) as lowercase hex. */
    public static String encodeToString(ByteBuffer src, boolean prefix) {
        byte[] ascii = new byte[encodedLength(src.remaining(), prefix)];
        encode(src, ascii, 0, prefix);
        return new String(ascii, StandardCharsets.ISO_8859_1);
    }

    /** The readable bytes of {@code src} (indices untouched) as lowercase hex. */
    public static String encodeToString(ByteBuf src, boolean prefix) {
        return encodeToString(src.nioBuffer(), prefix);
    }

    // ---------------------------------------------------------------- encode to byte[]

    /**
     * Writes {@code src[srcOffset, srcOffset + length)} as hex into {@code dst} from {@code dstOffset}.
     *
     * @return the number of ASCII bytes written, {@code encodedLength(length, prefix)}
     * @throws IndexOutOfBoundsException if either region is out of bounds (nothing is written)
     */
    public static int encode(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset, boolean prefix) {
        int n = encodedLength(length, prefix);
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        Objects.checkFromIndexSize(dstOffset, n, dst.length);
        int d = dstOffset;
        if (prefix) {
            dst[d++] = '0';
            dst[d++] = 'x';
        }
        encodeDigits(src, srcOffset, length, dst, d);
        return n;
    }

    /**
     * Writes the remaining bytes of {@code src} (position and limit untouched; heap or direct) as hex into {@code dst}
     * from {@code dstOffset}.
     *
     * @return the number of ASCII bytes written
     */
    public static int encode(ByteBuffer src, byte[] dst, int dstOffset, boolean prefix) {
        if (src.hasArray()) {
            return encode(src.array(), src.arrayOffset() + src.position(), src.remaining(), dst, dstOffset, prefix);
        }
        int n = encodedLength(src.remaining(), prefix);
        return encode(src, Unpooled.wrappedBuffer(dst, dstOffset, n).writerIndex(0), prefix);
    }

    // ---------------------------------------------------------------- encode to ByteBuffer

    /**
     * Writes {@code src[srcOffset, srcOffset + length)} as hex into {@code dst} (heap or direct) from its absolute
     * index {@code dstIndex}; {@code dst}'s position, limit and mark are not touched.
     *
     * @return the number of ASCII bytes written, {@code encodedLength(length, prefix)}
     * @throws IndexOutOfBoundsException if the source region, or {@code [dstIndex, dstIndex + encodedLength)} within
     *     {@code dst}'s limit, is out of bounds (nothing is written)
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only (nothing is written)
     */
    public static int encode(byte[] src, int srcOffset, int length, ByteBuffer dst, int dstIndex, boolean prefix) {
        int n = encodedLength(length, prefix);
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        Objects.checkFromIndexSize(dstIndex, n, dst.limit());
        if (dst.isReadOnly()) {
            throw new java.nio.ReadOnlyBufferException();
        }
        if (dst.hasArray()) {
            return encode(src, srcOffset, length, dst.array(), dst.arrayOffset() + dstIndex, prefix);
        }
        int d = dstIndex;
        if (prefix) {
            dst.put(d, (byte) '0').put(d + 1, (byte) 'x');
            d += 2;
        }
        int done = VECTOR_BUFFER_STORES ? HexVector.encode(src, srcOffset, length, dst, d) : 0;
        byte[] scratch = OUT_SCRATCH.get();
        for (int k; done < length; done += k) {
            k = Math.min(scratch.length / 2, length - done);
            encodeDigits(src, srcOffset + done, k, scratch, 0);
            dst.put(d + 2 * done, scratch, 0, 2 * k);
        }
        return n;
    }

    /**
     * Writes the remaining bytes of {@code src} (position and limit untouched; heap or direct) as hex into {@code dst}
     * from its absolute index {@code dstIndex}, as {@link #encode(byte[], int, int, ByteBuffer, int, boolean)}.
     *
     * @return the number of ASCII bytes written
     */
    public static int encode(ByteBuffer src, ByteBuffer dst, int dstIndex, boolean prefix) {
        if (src.hasArray()) {
            return encode(src.array(), src.arrayOffset() + src.position(), src.remaining(), dst, dstIndex, prefix);
        }
        int length = src.remaining();
        int n = encodedLength(length, prefix);
        Objects.checkFromIndexSize(dstIndex, n, dst.limit());
        int d = dstIndex;
        if (prefix) {
            dst.put(d, (byte) '0').put(d + 1, (byte) 'x');
            d += 2;
        }
        byte[] staged = IN_SCRATCH.get();
        for (int done = 0, k; done < length; done += k, d += 2 * k) {
            k = Math.min(staged.length, length - done);
            src.get(src.position() + done, staged, 0, k);
            encode(staged, 0, k, dst, d, false);
        }
        return n;
    }

    // ---------------------------------------------------------------- encode to ByteBuf

    /**
     * Writes {@code src[srcOffset, srcOffset + length)} as hex into {@code dst} at its writer index and advances it by
     * the returned count. Heap, direct, pooled and composite buffers are all accepted; {@code dst} grows if needed
     * (within its max capacity). Only the bytes {@code [writerIndex, writerIndex + encodedLength)} are touched.
     *
     * @return the number of ASCII bytes written, {@code encodedLength(length, prefix)}
     * @throws IndexOutOfBoundsException if the source region is out of bounds or {@code dst} cannot grow enough
     *     (nothing is written)
     */
    public static int encode(byte[] src, int srcOffset, int length, ByteBuf dst, boolean prefix) {
        int n = encodedLength(length, prefix);
        Objects.checkFromIndexSize(srcOffset, length, src.length);
        dst.ensureWritable(n);
        int w = dst.writerIndex();
        if (dst.hasArray()) {
            encode(src, srcOffset, length, dst.array(), dst.arrayOffset() + w, prefix);
        } else if (VECTOR_BUFFER_STORES && length >= VIEW_THRESHOLD && dst.nioBufferCount() == 1) {
            encode(src, srcOffset, length, dst.nioBuffer(w, n), 0, prefix);
        } else {
            int d = w;
            if (prefix) {
                dst.setShortLE(d, '0' | 'x' << 8);
                d += 2;
            }
            byte[] scratch = OUT_SCRATCH.get();
            int perBlock = scratch.length / 2;
            for (int done = 0; done < length; done += perBlock) {
                int k = Math.min(perBlock, length - done);
                encodeDigits(src, srcOffset + done, k, scratch, 0);
                dst.setBytes(d, scratch, 0, 2 * k);
                d += 2 * k;
            }
        }
        dst.writerIndex(w + n);
        return n;
    }

    /**
     * Writes the remaining bytes of {@code src} (position and limit untouched; heap or direct) as hex into {@code dst}
     * at its writer index, as {@link #encode(byte[], int, int, ByteBuf, boolean)}.
     *
     * @return the number of ASCII bytes written
     */
    public static int encode(ByteBuffer src, ByteBuf dst, boolean prefix) {
        if (src.hasArray()) {
            return encode(src.array(), src.arrayOffset() + src.position(), src.remaining(), dst, prefix);
        }
        int length = src.remaining();
        int n = encodedLength(length, prefix);
        dst.ensureWritable(n);
        if (prefix) {
            dst.writeShortLE('0' | 'x' << 8);
        }
        byte[] staged = IN_SCRATCH.get();
        for (int done = 0; done < length; done += staged.length) {
            int k = Math.min(staged.length, length - done);
            src.get(src.position() + done, staged, 0, k);
            encode(staged, 0, k, dst, false);
        }
        return n;
    }

    /**
     * Writes the readable bytes of {@code src} (its indices untouched) as hex into {@code dst} at its writer index, as
     * {@link #encode(byte[], int, int, ByteBuf, boolean)}.
     *
     * @return the number of ASCII bytes written
     */
    public static int encode(ByteBuf src, ByteBuf dst, boolean prefix) {
        if (src.hasArray()) {
            return encode(src.array(), src.arrayOffset() + src.readerIndex(), src.readableBytes(), dst, prefix);
        }
        return encode(src.nioBuffer(), dst, prefix);
    }

    // ---------------------------------------------------------------- kernels

    /** The digits of {@code src[srcOffset, srcOffset + length)}, no prefix. Bounds are the caller's. */
    private static void encodeDigits(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
        int bulk = VECTOR ? HexVector.encode(src, srcOffset, length, dst, dstOffset) : 0;
        PairTable.encode(src, srcOffset + bulk, length - bulk, dst, dstOffset + 2 * bulk);
    }

    private static FastThreadLocal<byte[]> scratch(int size) {
        return new FastThreadLocal<>() {
            @Override
            protected byte[] initialValue() {
                return new byte[size];
            }
        };
    }
}
