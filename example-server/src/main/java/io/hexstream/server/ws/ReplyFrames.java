package io.hexstream.server.ws;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.stream.ChunkedInput;

/**
 * One reply as one WebSocket text message (RFC 6455 5.4, fragmentation): a text frame and continuation frames, one per
 * chunk of the reply's body, the last one final; each frame's payload is the chunk itself (a pooled direct buffer,
 * never copied). Produced as a {@code ChunkedWriteHandler} asks, so as the socket drains. Owns the body's input:
 * {@link #close()} closes it. Not thread-safe: one event loop reads it.
 */
final class ReplyFrames implements ChunkedInput<WebSocketFrame> {
    private final ChunkedInput<ByteBuf> body;
    private boolean started;
    private boolean ended;

    ReplyFrames(ChunkedInput<ByteBuf> body) {
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
    public WebSocketFrame readChunk(ChannelHandlerContext ctx) throws Exception {
        return readChunk(ctx.alloc());
    }

    /** The next frame, or {@code null} after the final one. */
    @Override
    public WebSocketFrame readChunk(ByteBufAllocator allocator) throws Exception {
        if (ended) {
            return null;
        }
        ByteBuf chunk = body.isEndOfInput() ? null : body.readChunk(allocator);
        if (chunk == null && !body.isEndOfInput()) {
            return null; // not ready: the chunked writer asks again
        }
        ended = body.isEndOfInput();
        ByteBuf payload = chunk != null ? chunk : Unpooled.EMPTY_BUFFER;
        WebSocketFrame frame =
                started ? new ContinuationWebSocketFrame(ended, 0, payload) : new TextWebSocketFrame(ended, 0, payload);
        started = true;
        return frame;
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
