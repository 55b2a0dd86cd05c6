package io.hexstream.client;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2ResetFrame;
import java.io.IOException;

/**
 * In an HTTP/2 stream's pipeline: the server's {@code RST_STREAM} (RFC 9113, section 6.4), which Netty's multiplexer
 * hands a stream as a user event, becomes an {@link IOException} of one line, {@code stream reset by the server:
 * CANCEL}, fired as the stream's exception so that its response reader fails the one call the stream carries. Holds no
 * state: one instance serves every stream.
 */
@Sharable
final class StreamResetHandler extends ChannelInboundHandlerAdapter {
    static final StreamResetHandler INSTANCE = new StreamResetHandler();

    private StreamResetHandler() {}

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof Http2ResetFrame reset) {
            ctx.fireExceptionCaught(new IOException("stream reset by the server: " + errorName(reset.errorCode())));
        } else {
            ctx.fireUserEventTriggered(evt);
        }
    }

    /** The code's name in RFC 9113, section 7 ({@code CANCEL}), or its number if it names none. */
    static String errorName(long code) {
        Http2Error error = Http2Error.valueOf(code);
        return error != null ? error.name() : "error code " + code;
    }
}
