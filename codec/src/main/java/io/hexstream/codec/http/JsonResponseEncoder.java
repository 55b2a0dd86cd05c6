package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.stream.ChunkedWriteHandler;

/**
 * Sends each {@link JsonResponse} written through it as an HTTP response: status,
 * {@code Content-Type: application/json}, exact {@code Content-Length}, keep-alive as the response
 * says (the connection is closed after the last byte otherwise), and the body streamed in direct
 * chunks as the socket drains. Other messages pass through untouched.
 *
 * <p>Place it after (closer to the application than) a {@link ChunkedWriteHandler}, which does the
 * draining, behind an {@code HttpServerCodec}:
 *
 * <pre>
 * pipeline.addLast(new HttpServerCodec());
 * pipeline.addLast(new HttpObjectAggregator(16 * 1024 * 1024));
 * pipeline.addLast(new ChunkedWriteHandler());
 * pipeline.addLast(new JsonResponseEncoder());
 * pipeline.addLast(new SimpleChannelInboundHandler&lt;FullHttpRequest&gt;() {
 *     protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
 *         JsonBody body = JsonBody.builder().beginArray().hex(blob).endArray().build();
 *         ctx.writeAndFlush(JsonResponse.of(request, HttpResponseStatus.OK, body));
 *     }
 * });
 * </pre>
 *
 * <p>Ownership: the response's body goes to a {@link JsonBodyInput}, which {@code ChunkedWriteHandler}
 * closes at the end, on failure and on disconnect. If no {@code ChunkedWriteHandler} is in the
 * pipeline the write fails and the body is released here.
 */
public final class JsonResponseEncoder extends ChannelOutboundHandlerAdapter {
    private final int chunkSize;

    /** An encoder producing chunks of {@link JsonBodyInput#DEFAULT_CHUNK_SIZE}. */
    public JsonResponseEncoder() {
        this(JsonBodyInput.DEFAULT_CHUNK_SIZE);
    }

    /** An encoder producing chunks of at most {@code chunkSize} bytes (at least {@link JsonBodyInput#MIN_CHUNK_SIZE}). */
    public JsonResponseEncoder(int chunkSize) {
        if (chunkSize < JsonBodyInput.MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + JsonBodyInput.MIN_CHUNK_SIZE);
        }
        this.chunkSize = chunkSize;
    }

    /**
     * {@code body} as HTTP content, for a handler that writes its own response head (with
     * {@code Content-Length} = {@link JsonBody#length()}): direct chunks of at most {@code chunkSize}
     * bytes, the last one as a {@code LastHttpContent} ({@link HttpBodyInput}), through a
     * {@link ChunkedWriteHandler}. Takes ownership of one reference to {@code body}.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is below {@link JsonBodyInput#MIN_CHUNK_SIZE}
     *     (the body is then released)
     */
    public static HttpBodyInput httpContent(JsonBody body, int chunkSize) {
        return new HttpBodyInput(new JsonBodyInput(body, chunkSize));
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof JsonResponse)) {
            ctx.write(msg, promise);
            return;
        }
        JsonResponse response = (JsonResponse) msg;
        if (ctx.pipeline().get(ChunkedWriteHandler.class) == null) {
            response.release();
            promise.setFailure(new IllegalStateException("JsonResponseEncoder needs a ChunkedWriteHandler before it"));
            return;
        }
        HttpResponse head = new DefaultHttpResponse(response.version(), response.status());
        response.setHeaders(head.headers());
        HttpUtil.setKeepAlive(head, response.keepAlive());
        ctx.write(head);
        if (response.keepAlive()) {
            ctx.write(httpContent(response.body(), chunkSize), promise);
        } else {
            ctx.write(httpContent(response.body(), chunkSize), promise.unvoid())
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }
}
