package io.hexstream.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.codec.tuweni.TuweniHex;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.tuweni.bytes.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class HexEncodeTest {
    private static final byte SENTINEL = (byte) 0xA5;

    @Test
    void everyByteValueGetsItsTwoLowercaseDigits() {
        byte[] all = new byte[256];
        for (int b = 0; b < 256; b++) {
            all[b] = (byte) b;
        }
        StringBuilder expected = new StringBuilder("0x");
        for (int b = 0; b < 256; b++) {
            expected.append("0123456789abcdef".charAt(b >>> 4)).append("0123456789abcdef".charAt(b & 15));
        }
        assertEquals(expected.toString(), Hex.encodeToString(all, true));
        assertEquals(expected.substring(2), Hex.encodeToString(all, false));
        assertEquals(expected.substring(2), new String(PairTable.TABLE, US_ASCII));
    }

    /** RFC 4648 section 10, BASE16 test vectors, in lowercase. */
    @ParameterizedTest
    @CsvSource({
        "'', ''",
        "f, 66",
        "fo, 666f",
        "foo, 666f6f",
        "foob, 666f6f62",
        "fooba, 666f6f6261",
        "foobar, 666f6f626172"
    })
    void rfc4648Vectors(String input, String hex) {
        assertEquals(hex, Hex.encodeToString(input.getBytes(US_ASCII), false));
        assertEquals("0x" + hex, Hex.encodeToString(input.getBytes(US_ASCII), true));
    }

    @Test
    void emptyInputIsJustThePrefix() {
        assertEquals("0x", Hex.encodeToString(new byte[0], true));
        assertEquals("", Hex.encodeToString(new byte[0], false));
        byte[] dst = {SENTINEL, SENTINEL, SENTINEL};
        assertEquals(2, Hex.encode(new byte[0], 0, 0, dst, 1, true));
        assertArrayEquals(new byte[] {SENTINEL, '0', 'x'}, dst);
    }

    @Test
    void encodedLength() {
        assertEquals(0, Hex.encodedLength(0, false));
        assertEquals(2, Hex.encodedLength(0, true));
        assertEquals(35_127_298, Hex.encodedLength(17_563_648, true));
        assertEquals(Integer.MAX_VALUE - 1, Hex.encodedLength((Integer.MAX_VALUE - 2) / 2, true));
        assertThrows(IllegalArgumentException.class, () -> Hex.encodedLength(-1, false));
        assertThrows(IllegalArgumentException.class, () -> Hex.encodedLength(Integer.MAX_VALUE / 2 + 1, false));
    }

    @Test
    void byteArrayRegionsAreBoundsCheckedBeforeWriting() {
        byte[] src = new byte[10];
        byte[] dst = new byte[22];
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(src, 5, 6, dst, 0, true));
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(src, 0, 10, dst, 1, true));
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(src, -1, 2, dst, 0, false));
        assertArrayEquals(new byte[22], dst);
        assertEquals(22, Hex.encode(src, 0, 10, dst, 0, true));
    }

    static List<Supplier<ByteBuf>> targets() {
        return List.of(
                named("unpooled heap", () -> Unpooled.buffer(16)),
                named("unpooled direct", () -> Unpooled.directBuffer(16)),
                named("pooled heap", () -> PooledByteBufAllocator.DEFAULT.heapBuffer(16)),
                named("pooled direct", () -> PooledByteBufAllocator.DEFAULT.directBuffer(16)),
                named("composite of three", () -> {
                    CompositeByteBuf c = Unpooled.compositeBuffer();
                    c.addComponent(true, Unpooled.directBuffer(7).writeZero(7));
                    c.addComponent(true, Unpooled.buffer(5).writeZero(5));
                    c.addComponent(
                            true,
                            PooledByteBufAllocator.DEFAULT.directBuffer(3000).writeZero(3000));
                    return c.writerIndex(0);
                }),
                named(
                        "composite of one",
                        () -> Unpooled.compositeBuffer()
                                .addComponent(
                                        true,
                                        PooledByteBufAllocator.DEFAULT
                                                .directBuffer(64)
                                                .writeZero(64))
                                .writerIndex(0)));
    }

    private static Supplier<ByteBuf> named(String name, Supplier<ByteBuf> supplier) {
        return new Supplier<>() {
            @Override
            public ByteBuf get() {
                return supplier.get();
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }

    @ParameterizedTest
    @MethodSource("targets")
    void byteBufTargetsGetExactlyTheirRegion(Supplier<ByteBuf> target) {
        Random random = new Random(42);
        for (int length : new int[] {0, 1, 7, 8, 9, 15, 16, 17, 2047, 2048, 2049, 5000}) {
            byte[] src = new byte[length + 9];
            random.nextBytes(src);
            for (boolean prefix : new boolean[] {false, true}) {
                ByteBuf dst = target.get();
                try {
                    int n = Hex.encodedLength(length, prefix);
                    int start = 3;
                    dst.ensureWritable(start + n + 5);
                    dst.setBytes(0, filled(dst.capacity(), SENTINEL));
                    dst.writerIndex(start);
                    int refCnt = dst.refCnt();

                    assertEquals(n, Hex.encode(src, 4, length, dst, prefix));

                    assertEquals(start + n, dst.writerIndex());
                    assertEquals(refCnt, dst.refCnt());
                    byte[] all = new byte[dst.capacity()];
                    dst.getBytes(0, all);
                    String expected = (prefix ? "0x" : "") + HexFormat.of().formatHex(src, 4, 4 + length);
                    assertEquals(expected, new String(all, start, n, US_ASCII), target + " length " + length);
                    for (int i = 0; i < all.length; i++) {
                        if (i < start || i >= start + n) {
                            assertEquals(SENTINEL, all[i], target + ": byte " + i + " outside the region changed");
                        }
                    }
                } finally {
                    dst.release();
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("targets")
    void byteBufTargetGrowsWhenNeeded(Supplier<ByteBuf> target) {
        ByteBuf dst = target.get();
        try {
            byte[] src = new byte[40_000];
            new Random(7).nextBytes(src);
            dst.writerIndex(dst.capacity());
            int before = dst.writerIndex();
            Hex.encode(src, 0, src.length, dst, true);
            assertEquals("0x" + HexFormat.of().formatHex(src), dst.toString(before, 80_002, US_ASCII));
        } finally {
            dst.release();
        }
    }

    @Test
    void targetAtMaxCapacityIsRefusedUntouched() {
        ByteBuf dst = Unpooled.buffer(4, 4);
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(new byte[2], 0, 2, dst, true));
        assertEquals(0, dst.writerIndex());
    }

    @Test
    void byteBufferSourcesKeepPositionAndLimit() {
        byte[] data = new byte[3000];
        new Random(3).nextBytes(data);
        String expected = "0x" + HexFormat.of().formatHex(data, 100, 2900);
        ByteBuffer direct = ByteBuffer.allocateDirect(3000).put(data);
        for (ByteBuffer view : new ByteBuffer[] {
            ByteBuffer.wrap(data).position(100).limit(2900),
            direct.position(100).limit(2900),
            ByteBuffer.wrap(data).position(100).limit(2900).slice()
        }) {
            int position = view.position();
            int limit = view.limit();
            assertEquals(expected, Hex.encodeToString(view, true));
            byte[] out = new byte[5602];
            assertEquals(5602, Hex.encode(view, out, 0, true));
            assertEquals(expected, new String(out, US_ASCII));
            ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
            try {
                assertEquals(5602, Hex.encode(view, buf, true));
                assertEquals(expected, buf.toString(US_ASCII));
            } finally {
                buf.release();
            }
            assertEquals(position, view.position());
            assertEquals(limit, view.limit());
        }
    }

    @ParameterizedTest
    @MethodSource("targets")
    void byteBufSourcesKeepTheirIndices(Supplier<ByteBuf> source) {
        byte[] data = new byte[2100];
        new Random(5).nextBytes(data);
        ByteBuf src = source.get();
        ByteBuf dst = Unpooled.directBuffer();
        try {
            src.writeBytes(data).readerIndex(33);
            String expected = "0x" + HexFormat.of().formatHex(data, 33, data.length);
            assertEquals(expected, Hex.encodeToString(src, true));
            assertEquals(expected.length(), Hex.encode(src, dst, true));
            assertEquals(expected, dst.toString(US_ASCII));
            assertEquals(33, src.readerIndex());
            assertEquals(data.length, src.writerIndex());
            assertEquals(1, src.refCnt());
        } finally {
            src.release();
            dst.release();
        }
    }

    /** Heap and direct ByteBuffer destinations get exactly their region; position, limit and the rest untouched. */
    @Test
    void byteBufferDestinationsGetExactlyTheirRegion() {
        Random random = new Random(17);
        for (int length : new int[] {0, 1, 15, 16, 17, 31, 32, 33, 4095, 4096, 4097, 20_000}) {
            byte[] src = new byte[length + 5];
            random.nextBytes(src);
            String digits = HexFormat.of().formatHex(src, 5, 5 + length);
            for (ByteBuffer dst : new ByteBuffer[] {
                ByteBuffer.allocate(2 * length + 12),
                ByteBuffer.allocateDirect(2 * length + 12),
                ByteBuffer.allocate(2 * length + 20).position(8).slice()
            }) {
                for (boolean prefix : new boolean[] {false, true}) {
                    for (int i = 0; i < dst.capacity(); i++) {
                        dst.put(i, SENTINEL);
                    }
                    dst.position(1).limit(dst.capacity() - 1);
                    int n = Hex.encode(src, 5, length, dst, 7, prefix);
                    assertEquals(Hex.encodedLength(length, prefix), n);
                    assertEquals(1, dst.position());
                    assertEquals(dst.capacity() - 1, dst.limit());
                    byte[] all = new byte[dst.capacity()];
                    dst.clear().get(0, all);
                    assertEquals(
                            (prefix ? "0x" : "") + digits, new String(all, 7, n, US_ASCII), dst + " length " + length);
                    for (int i = 0; i < all.length; i++) {
                        if (i < 7 || i >= 7 + n) {
                            assertEquals(SENTINEL, all[i], dst + ": byte " + i + " outside the region changed");
                        }
                    }
                }
            }
        }
    }

    @Test
    void byteBufferDestinationsAreCheckedBeforeWriting() {
        ByteBuffer dst = ByteBuffer.allocateDirect(10).limit(8);
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(new byte[4], 0, 4, dst, 1, false));
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(new byte[4], 0, 3, dst, 1, true));
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(new byte[4], 0, 1, dst, -1, false));
        assertThrows(
                java.nio.ReadOnlyBufferException.class,
                () -> Hex.encode(new byte[4], 0, 4, ByteBuffer.allocate(8).asReadOnlyBuffer(), 0, false));
        assertThrows(IndexOutOfBoundsException.class, () -> Hex.encode(ByteBuffer.allocateDirect(5), dst, 0, false));
        for (int i = 0; i < 8; i++) {
            assertEquals(0, dst.get(i), "byte " + i);
        }
        assertEquals(8, Hex.encode(new byte[] {1, 2, (byte) 0xab}, 0, 3, dst, 0, true));
        byte[] out = new byte[8];
        dst.get(0, out);
        assertEquals("0x0102ab", new String(out, US_ASCII));
    }

    @Test
    void byteBufferSourceIntoByteBufferDestination() {
        byte[] data = new byte[9000];
        new Random(19).nextBytes(data);
        ByteBuffer src =
                ByteBuffer.allocateDirect(data.length).put(data).position(3).limit(8999);
        ByteBuffer dst = ByteBuffer.allocateDirect(18_000);
        assertEquals(17_994, Hex.encode(src, dst, 2, true));
        byte[] out = new byte[17_994];
        dst.get(2, out);
        assertEquals("0x" + HexFormat.of().formatHex(data, 3, 8999), new String(out, US_ASCII));
        assertEquals(3, src.position());
        assertEquals(0, dst.position());
    }

    @Test
    void tuweniBytesOfEveryShape() {
        byte[] data = new byte[1000];
        new Random(11).nextBytes(data);
        for (Bytes bytes : new Bytes[] {
            Bytes.wrap(data),
            Bytes.wrap(data, 10, 900),
            Bytes.wrapByteBuffer(ByteBuffer.wrap(data)),
            Bytes.repeat((byte) 0xab, 77),
            Bytes.concatenate(Bytes.wrap(data), Bytes.of(1, 2, 3))
        }) {
            assertEquals(bytes.toHexString(), TuweniHex.encodeToString(bytes, true));
            ByteBuf dst = Unpooled.directBuffer();
            try {
                TuweniHex.encode(bytes, dst, false);
                assertEquals(bytes.toUnprefixedHexString(), dst.toString(US_ASCII));
            } finally {
                dst.release();
            }
        }
    }

    private static byte[] filled(int length, byte value) {
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, value);
        return bytes;
    }
}
