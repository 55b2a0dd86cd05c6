package io.hexstream.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import java.util.List;
import java.util.function.Consumer;

/**
 * Tells a connection's protocol by its first bytes, first in its pipeline, the handlers of the protocol it serves
 * unless told otherwise already in place behind it: the HTTP/2 connection preface ({@code PRI * HTTP/2.0…}, RFC 9113
 * 3.4: h2c with prior knowledge) is HTTP/2; where an HTTP/1.1 alternative is given (a connection whose default is not
 * HTTP), a first byte that is an upper-case letter starts an HTTP/1.1 request line (a method token: no JSON text starts
 * so). Anything else stays with the handlers in place. For another protocol, every handler behind this one is removed
 * and the protocol's are added; then this one goes, and the bytes it held go on to them. It holds at most the preface's
 * 24 bytes, and decides at the first byte that differs from it; a connection that sends nothing is left to the idle
 * timeout of the handlers in place.
 */
public final class ProtocolDetector extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Http2CodecUtil.connectionPrefaceBuf();

    private final Consumer<ChannelPipeline> http2;
    private final Consumer<ChannelPipeline> http1;

    /**
     * @param http2 adds HTTP/2's handlers at the pipeline's end
     * @param http1 adds HTTP/1.1's handlers at the pipeline's end; {@code null} where the handlers in place are
     *     HTTP/1.1's
     */
    public ProtocolDetector(Consumer<ChannelPipeline> http2, Consumer<ChannelPipeline> http1) {
        this.http2 = http2;
        this.http1 = http1;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int seen = Math.min(in.readableBytes(), PREFACE.readableBytes());
        if (ByteBufUtil.equals(in, in.readerIndex(), PREFACE, 0, seen)) {
            if (seen == PREFACE.readableBytes()) {
                switchTo(ctx, http2);
            }
            return; // a prefix of the preface so far
        }
        byte first = in.getByte(in.readerIndex());
        switchTo(ctx, http1 != null && first >= 'A' && first <= 'Z' ? http1 : null);
    }

    /** Puts {@code protocol}'s handlers in place of those behind this one ({@code null}: keeps them), then goes. */
    private void switchTo(ChannelHandlerContext ctx, Consumer<ChannelPipeline> protocol) {
        ChannelPipeline pipeline = ctx.pipeline();
        if (protocol != null) {
            while (pipeline.last() != this) {
                pipeline.removeLast();
            }
            protocol.accept(pipeline);
        }
        pipeline.remove(this); // what it holds goes on to the handlers now in place
    }
}
