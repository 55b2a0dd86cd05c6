package io.hexstream.server.ipc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * One reply as one line: the body's chunks as they are (pooled direct buffers, never copied), then a line feed. Owns
 * the body's input: {@link #close()} closes it. Not thread-safe: one event loop reads it.
 */
final class ReplyLine implements ChunkedInput<ByteBuf> {
    private static final ByteBuf LINE_FEED = Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(new byte[] {'\n'}).asReadOnly());

    private final ChunkedInput<ByteBuf> body;
    private boolean ended;

    ReplyLine(ChunkedInput<ByteBuf> body) {
        this.body = body;
    }

    @Override
    public boolean isEndOfInput() {
        return ended;
    }

    @Override
    public void close() throws Exception {
        body.close();
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    /** The body's next chunk, or after the last one the line feed; {@code null} after that. */
    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws Exception {
        if (ended) {
            return null;
        }
        if (!body.isEndOfInput()) {
            return body.readChunk(allocator);
        }
        ended = true;
        return LINE_FEED.duplicate();
    }

    @Override
    public long length() {
        long length = body.length();
        return length < 0 ? length : length + 1;
    }

    @Override
    public long progress() {
        return body.progress() + (ended ? 1 : 0);
    }
}
