package io.hexstream.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Error;

/**
 * What an HTTP/2 stream's request and response need to pass the HTTP/1.1 handlers unchanged ({@link Http2Streams}),
 * behind the {@code Http2StreamFrameToHttpObjectCodec}:
 *
 * <ul>
 *   <li>a request without {@code :authority} is given an empty {@code Host}, as HTTP/1.1 gives a request whose target
 *       has no authority (RFC 9112 3.2; RFC 9113 8.3.1: {@code :authority} replaces {@code Host}, and may be absent);
 *   <li>where HTTP/1.1 would linger before closing (a response sent while the request's body is still coming, a
 *       refusal), the stream ends with {@code RST_STREAM} {@code NO_ERROR} (RFC 9113 8.1: the client stops sending and
 *       keeps the response), leaving the connection and its other streams as they are.
 * </ul>
 */
final class Http2StreamAdapter extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request && !request.headers().contains(HttpHeaderNames.HOST)) {
            request.headers().set(HttpHeaderNames.HOST, "");
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event == LingeringClose.START) {
            ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.NO_ERROR));
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }
}
