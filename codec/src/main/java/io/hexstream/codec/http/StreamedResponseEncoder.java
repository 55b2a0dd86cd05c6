package io.hexstream.codec.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpContentEncoder;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedWriteHandler;

/**
 * Sends each {@link StreamedResponse} written through it as an HTTP response: status, its {@code Content-Type}, exact
 * {@code Content-Length}, keep-alive as the response says (the connection is closed after the last byte otherwise), and
 * the body streamed in chunks as the socket drains. Other messages pass through untouched.
 *
 * <p>On the wire side of it, per response: the head ({@code HttpResponse}), then the body's {@link ChunkedInput} of
 * {@code ByteBuf}s, drained by a {@link ChunkedWriteHandler}, whose chunks reach the HTTP encoder as bare buffers
 * (content of a message whose head gave its length; no {@code HttpContent} wrapper allocated per chunk), then
 * {@link LastHttpContent#EMPTY_LAST_CONTENT}, which ends the message. The write's promise completes when the body's
 * last byte is written, or fails with the body (the connection is then closed: its framing is lost).
 *
 * <p>Place it after (closer to the application than) a {@link ChunkedWriteHandler}, behind an {@code HttpServerCodec}:
 *
 * <pre>
 * pipeline.addLast(new HttpServerCodec());
 * pipeline.addLast(new HttpObjectAggregator(16 * 1024 * 1024));
 * pipeline.addLast(new ChunkedWriteHandler());
 * pipeline.addLast(new StreamedResponseEncoder());
 * pipeline.addLast(new SimpleChannelInboundHandler&lt;FullHttpRequest&gt;() {
 *     protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
 *         JsonBody body = JsonBody.builder().beginArray().hex(blob).endArray().build();
 *         ctx.writeAndFlush(JsonResponse.of(request, HttpResponseStatus.OK, body));
 *     }
 * });
 * </pre>
 *
 * <p>The pipeline is looked at once, when this handler is added: without a {@code ChunkedWriteHandler} in it then,
 * every response's write fails and the response is released here. No {@link HttpContentEncoder} (such as
 * {@code HttpContentCompressor}) may be in the pipeline: it passes bare buffers through unencoded after a head it has
 * marked compressed and chunked, which corrupts the response; one present when this handler is added is refused with an
 * {@link IllegalStateException}, and one added later is the caller's error.
 *
 * <p>Ownership: each response's reference goes to its body's input, which {@code ChunkedWriteHandler} closes at the
 * end, on failure and on disconnect.
 */
public final class StreamedResponseEncoder extends ChannelOutboundHandlerAdapter {
    /** Default chunk size: 256 KiB, within what Netty 4.2's allocators pool (≤ 1 MiB). */
    public static final int DEFAULT_CHUNK_SIZE = 256 * 1024;
    /** The smallest chunk size any {@link StreamedResponse} accepts. */
    public static final int MIN_CHUNK_SIZE = 1024;

    private final int chunkSize;
    /** Whether the pipeline had a {@code ChunkedWriteHandler} when this handler was added. */
    private boolean drained;

    /** An encoder producing chunks of {@link #DEFAULT_CHUNK_SIZE}. */
    public StreamedResponseEncoder() {
        this(DEFAULT_CHUNK_SIZE);
    }

    /** An encoder producing chunks of at most {@code chunkSize} bytes, at least {@link #MIN_CHUNK_SIZE}. */
    public StreamedResponseEncoder(int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + MIN_CHUNK_SIZE);
        }
        this.chunkSize = chunkSize;
    }

    /**
     * @throws IllegalStateException if an {@link HttpContentEncoder} is in the pipeline (Netty then removes this
     *     handler and fires the exception down the pipeline)
     */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        HttpContentEncoder compressor = ctx.pipeline().get(HttpContentEncoder.class);
        if (compressor != null) {
            throw new IllegalStateException("StreamedResponseEncoder cannot share a pipeline with "
                    + compressor.getClass().getSimpleName() + ": it would mark the head compressed and chunked"
                    + " and pass the body's bare buffers through as they are");
        }
        drained = ctx.pipeline().get(ChunkedWriteHandler.class) != null;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof StreamedResponse response)) {
            ctx.write(msg, promise);
            return;
        }
        if (!drained) {
            response.release();
            promise.setFailure(
                    new IllegalStateException("StreamedResponseEncoder needs a ChunkedWriteHandler before it"));
            return;
        }
        ChunkedInput<ByteBuf> body;
        try {
            body = response.bodyInput(chunkSize);
        } catch (RuntimeException e) {
            promise.setFailure(e);
            return;
        }
        HttpResponse head = new DefaultHttpResponse(response.version(), response.status());
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, response.contentLength());
        HttpUtil.setKeepAlive(head, response.keepAlive());
        ctx.write(head);
        ctx.write(body, promise.unvoid()).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
        if (response.keepAlive()) {
            ctx.write(LastHttpContent.EMPTY_LAST_CONTENT);
        } else {
            ctx.write(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
