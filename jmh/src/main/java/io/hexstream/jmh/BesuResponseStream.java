package io.hexstream.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.OutputStream;
import java.util.function.Consumer;

/**
 * The stream Besu serialises a JSON-RPC reply into, as in
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/jsonrpc/JsonResponseStreamer.java}: Jackson's
 * {@code ObjectWriter.writeValue(OutputStream, …)} fills its own ~8 KB buffer and hands each flush to
 * {@link #write(byte[], int, int)}, which copies it into a new heap buffer of exactly that size (Vert.x
 * {@code Buffer.buffer(len).appendBytes(…)}, an unpooled heap {@code ByteBuf}) and writes it as one chunk of a chunked
 * HTTP response. Each such chunk then goes to {@code sink}: in JMH, the copy into a pooled direct buffer that Netty's
 * NIO transport makes of every heap buffer it writes ({@code AbstractNioChannel.newDirectBuffer}), then released as the
 * socket would; end to end, one chunked-HTTP write. Nothing else: no String of the body, no whole-body array.
 */
public final class BesuResponseStream extends OutputStream {
    private final Consumer<ByteBuf> sink;
    private long written;

    /** A stream handing every flush, copied into its own heap buffer, to {@code sink}, which owns it. */
    public BesuResponseStream(Consumer<ByteBuf> sink) {
        this.sink = sink;
    }

    /** The JMH sink: the transport's copy of each heap chunk into a pooled direct buffer, both released. */
    public static BesuResponseStream intoDirectBuffers(ByteBufAllocator allocator) {
        return new BesuResponseStream(heap -> {
            ByteBuf direct = allocator.directBuffer(heap.readableBytes());
            try {
                direct.writeBytes(heap);
            } finally {
                heap.release();
                direct.release();
            }
        });
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ByteBuf chunk = Unpooled.buffer(length, length).writeBytes(bytes, offset, length);
        written += length;
        sink.accept(chunk);
    }

    /** Bytes handed on so far. */
    public long written() {
        return written;
    }
}
