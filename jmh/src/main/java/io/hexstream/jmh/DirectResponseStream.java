package io.hexstream.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.OutputStream;

/**
 * {@link BesuResponseStream} without its heap copy: each write Jackson hands on is copied straight into a pooled direct
 * buffer (then released, as the socket would), as a JSON-RPC streamer writing Netty buffers rather than Vert.x heap
 * {@code Buffer}s would do. Isolates what the serializer itself costs.
 */
public final class DirectResponseStream extends OutputStream {
    private final ByteBufAllocator allocator;
    private long written;

    public DirectResponseStream(ByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ByteBuf direct = allocator.directBuffer(length, length);
        try {
            direct.writeBytes(bytes, offset, length);
        } finally {
            direct.release();
        }
        written += length;
    }

    /** Bytes handed on so far. */
    public long written() {
        return written;
    }
}
