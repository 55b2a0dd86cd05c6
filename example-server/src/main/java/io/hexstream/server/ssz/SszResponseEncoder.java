package io.hexstream.server.ssz;

import io.hexstream.codec.http.HttpBodyInput;
import io.hexstream.codec.json.JsonBodyInput;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Sends each {@link GetBlobsResponse} written through it as {@code 200}, {@code Content-Type:
 * application/octet-stream}, exact {@code Content-Length}, keep-alive as the response says (closed after
 * the last byte otherwise), the body a {@link GetBlobsResponseInput} of {@link JsonBodyInput#DEFAULT_CHUNK_SIZE}
 * chunks (the JSON bodies' size: the same bound on what a stalled reader pins) drained by the
 * {@code ChunkedWriteHandler} before it as an {@link HttpBodyInput}: each chunk a bare {@code ByteBuf}
 * and the last a {@code LastHttpContent}, no wrapper allocated per chunk. Other messages pass through.
 * The response is released here once its input holds what it needs.
 */
public final class SszResponseEncoder extends ChannelOutboundHandlerAdapter {

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof GetBlobsResponse response)) {
            ctx.write(msg, promise);
            return;
        }
        HttpBodyInput body;
        try {
            body = new HttpBodyInput(new GetBlobsResponseInput(response, JsonBodyInput.DEFAULT_CHUNK_SIZE));
        } finally {
            response.release();
        }
        HttpResponse head = new DefaultHttpResponse(response.httpVersion(), HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.length());
        HttpUtil.setKeepAlive(head, response.keepAlive());
        ctx.write(head);
        if (response.keepAlive()) {
            ctx.write(body, promise);
        } else {
            ctx.write(body, promise.unvoid()).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
