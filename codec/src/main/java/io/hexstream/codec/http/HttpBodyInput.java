package io.hexstream.codec.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedInput;

/**
 * A body of {@code ByteBuf} chunks as the content of an HTTP message whose head gives its exact
 * {@code Content-Length}, for a {@link io.netty.handler.stream.ChunkedWriteHandler} in front of an
 * {@code HttpServerCodec}: every chunk as the bare buffer (the HTTP encoder writes a buffer after such a
 * head as content), the last one wrapped as the {@link LastHttpContent} that ends the message (an empty
 * one if the body is empty). Netty's {@code HttpChunkedInput} wraps every chunk in an {@code HttpContent}
 * instead: an object per chunk that nothing reads.
 *
 * <p>Owns {@code body}: {@link #close()} closes it; every chunk returned is the caller's to release.
 */
public final class HttpBodyInput implements ChunkedInput<Object> {
    private final ChunkedInput<ByteBuf> body;
    private boolean ended;

    /** Takes ownership of {@code body}. */
    public HttpBodyInput(ChunkedInput<ByteBuf> body) {
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
    public Object readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    /** The next chunk: a bare {@code ByteBuf}, then the last as a {@code LastHttpContent}; {@code null} after it. */
    @Override
    public Object readChunk(ByteBufAllocator allocator) throws Exception {
        if (ended) {
            return null;
        }
        ByteBuf chunk = body.readChunk(allocator);
        if (chunk == null) {
            if (!body.isEndOfInput()) {
                return null; // nothing ready yet
            }
            ended = true;
            return LastHttpContent.EMPTY_LAST_CONTENT;
        }
        if (body.isEndOfInput()) {
            ended = true;
            return new DefaultLastHttpContent(chunk);
        }
        return chunk;
    }

    @Override
    public long length() {
        return body.length();
    }

    @Override
    public long progress() {
        return body.progress();
    }
}
