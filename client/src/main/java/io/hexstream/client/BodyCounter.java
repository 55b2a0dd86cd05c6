package io.hexstream.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;

/**
 * Counts the body bytes of the response being read, between the HTTP decoder and the response reader: reset at each
 * final response head, so that when the reader completes a response (on the same event loop, during the read of its
 * last content) {@link #bytes()} is that body's length. Passes every message on untouched.
 */
final class BodyCounter extends ChannelInboundHandlerAdapter {
    private long bytes;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpResponse head && head.status().codeClass() != HttpStatusClass.INFORMATIONAL) {
            bytes = 0;
        }
        if (msg instanceof HttpContent content) {
            bytes += content.content().readableBytes();
        }
        ctx.fireChannelRead(msg);
    }

    /** Body bytes of the current response so far; read on the channel's event loop. */
    long bytes() {
        return bytes;
    }
}
