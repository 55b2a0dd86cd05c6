package io.hexstream.codec.http;

import io.hexstream.codec.body.StreamedBody;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContentEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * Sends each {@link StreamedResponse} written through it as an HTTP response: status, its body's {@code Content-Type},
 * exact {@code Content-Length}, keep-alive as the response says (the connection is closed after the last byte
 * otherwise), and the body streamed in chunks as the socket drains. Other messages pass through untouched, in order:
 * one written while a body is being sent waits behind it.
 *
 * <p>On the wire side of it, per response: the head ({@code HttpResponse}), then the body's chunks as bare
 * {@code ByteBuf}s (content of a message whose head gave its length; no {@code HttpContent} wrapper per chunk), then
 * {@link LastHttpContent#EMPTY_LAST_CONTENT}, which ends the message. The head and the chunks are written with the
 * channel's void promise (no promise or listener per write); only the end carries the response's promise, which
 * completes when the last byte is written, or fails with the body (the connection is then closed: its framing is lost).
 * Chunks are made while the channel is writable and flushed when it turns unwritable or the body ends, so at most the
 * high water mark plus one chunk is queued per connection, and the socket takes several chunks a flush.
 *
 * <p>Failures: a chunk's failed write has no promise to fail, so the transport fires it as {@code exceptionCaught} (a
 * close with chunks still queued does the same, with a {@code ClosedChannelException}); any exception that passes this
 * handler while a body is being sent closes the connection. Closing (or removing this handler) closes the body's input,
 * which releases what it holds, fails the response's promise and releases the messages waiting behind it. An input that
 * fails to produce a chunk fails the promise and closes the connection.
 *
 * <p>Behind an {@code HttpServerCodec}, without a {@link ChunkedWriteHandler} on its socket side (one there would hold
 * the chunks unflushed, unseen by the channel's writability); one on its application side, for other
 * {@code ChunkedInput}s, is fine:
 *
 * <pre>
 * pipeline.addLast(new HttpServerCodec());
 * pipeline.addLast(new HttpObjectAggregator(16 * 1024 * 1024));
 * pipeline.addLast(new StreamedResponseEncoder());
 * pipeline.addLast(new SimpleChannelInboundHandler&lt;FullHttpRequest&gt;() {
 *     protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
 *         JsonBody body = JsonBody.builder().beginArray().hex(blob).endArray().build();
 *         ctx.writeAndFlush(StreamedResponse.of(request, HttpResponseStatus.OK, body));
 *     }
 * });
 * </pre>
 *
 * <p>The pipeline is looked at once, when this handler is added: a {@code ChunkedWriteHandler} on its socket side, or
 * any {@link HttpContentEncoder} (such as {@code HttpContentCompressor}, which passes bare buffers through unencoded
 * after a head it has marked compressed and chunked), is refused with an {@link IllegalStateException}; one added later
 * is the caller's error.
 *
 * <p>Ownership: each response's reference goes to its body's input, which this handler closes once the body's last
 * chunk is read (each chunk is a buffer of its own, released by the transport), on failure and on disconnect. One
 * instance per channel; its methods run on the channel's event loop.
 */
public final class StreamedResponseEncoder extends ChannelDuplexHandler {
    /** Default chunk size: 256 KiB, within what Netty 4.2's allocators pool (≤ 1 MiB). */
    public static final int DEFAULT_CHUNK_SIZE = 256 * 1024;

    private static final InternalLogger LOG = InternalLoggerFactory.getInstance(StreamedResponseEncoder.class);

    private final int chunkSize;
    /** Writes behind the body being sent, in order: each message followed by its promise. */
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    /** The input of the body being sent, or {@code null}. */
    private ChunkedInput<ByteBuf> body;
    /** The promise of the body being sent, completed by the write of its end. */
    private ChannelPromise bodyPromise;

    private boolean bodyKeepAlive;
    /** Whether {@link #drain} is running, further up the stack. */
    private boolean draining;

    /** An encoder producing chunks of {@link #DEFAULT_CHUNK_SIZE}. */
    public StreamedResponseEncoder() {
        this(DEFAULT_CHUNK_SIZE);
    }

    /** An encoder producing chunks of at most {@code chunkSize} bytes, at least {@link StreamedBody#MIN_CHUNK_SIZE}. */
    public StreamedResponseEncoder(int chunkSize) {
        if (chunkSize < StreamedBody.MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + StreamedBody.MIN_CHUNK_SIZE);
        }
        this.chunkSize = chunkSize;
    }

    /**
     * @throws IllegalStateException if an {@link HttpContentEncoder} is in the pipeline, or a
     *     {@link ChunkedWriteHandler} between this handler and the socket (Netty then removes this handler and fires
     *     the exception down the pipeline)
     */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        HttpContentEncoder compressor = ctx.pipeline().get(HttpContentEncoder.class);
        if (compressor != null) {
            throw new IllegalStateException("StreamedResponseEncoder cannot share a pipeline with "
                    + compressor.getClass().getSimpleName() + ": it would mark the head compressed and chunked"
                    + " and pass the body's bare buffers through as they are");
        }
        for (Map.Entry<String, ChannelHandler> handler : ctx.pipeline()) {
            if (handler.getValue() == this) {
                break;
            }
            if (handler.getValue() instanceof ChunkedWriteHandler) {
                throw new IllegalStateException("StreamedResponseEncoder streams its bodies itself: a"
                        + " ChunkedWriteHandler between it and the socket would hold its chunks unflushed");
            }
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (body != null || !waiting.isEmpty()) {
            waiting.add(msg);
            waiting.add(promise);
        } else {
            send(ctx, msg, promise);
        }
    }

    private void send(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof StreamedResponse response) {
            start(ctx, response, promise);
        } else {
            ctx.write(msg, promise);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (!drain(ctx)) {
            ctx.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            drain(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        discard();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        discard();
    }

    /** A chunk's failed write comes here, from the transport: the body's framing is lost, so the connection goes. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (body != null) {
            ctx.close();
        }
        ctx.fireExceptionCaught(cause);
    }

    /** Writes {@code response}'s head and makes its body the one being sent; its chunks follow on the next flush. */
    private void start(ChannelHandlerContext ctx, StreamedResponse response, ChannelPromise promise) {
        if (!ctx.channel().isActive()) {
            response.release();
            promise.tryFailure(new ClosedChannelException());
            return;
        }
        HttpResponse head = response.head(); // read while the response still holds the body
        try {
            body = response.body().bodyInput(chunkSize);
        } catch (RuntimeException e) {
            promise.tryFailure(e);
            ctx.close(); // no response was written: a later one on this connection would answer the wrong request
            return;
        }
        bodyPromise = promise;
        bodyKeepAlive = response.keepAlive();
        ctx.write(head, ctx.voidPromise());
    }

    /**
     * Writes chunks, then what waits behind the body, while the channel is active and writable, flushing whenever it
     * turns unwritable and at the end if anything was written. Not re-entered: a flush that empties the socket's queue
     * fires {@code channelWritabilityChanged} from within, and a drain there would nest once per flush.
     *
     * @return whether it flushed at the end
     */
    private boolean drain(ChannelHandlerContext ctx) {
        if (draining) {
            return false; // a flush below turned the channel writable: the loop below goes on
        }
        draining = true;
        try {
            return drainWritable(ctx);
        } finally {
            draining = false;
        }
    }

    private boolean drainWritable(ChannelHandlerContext ctx) {
        Channel channel = ctx.channel();
        boolean unflushed = false;
        while (channel.isActive() && (body != null || !waiting.isEmpty())) {
            if (!channel.isWritable()) {
                if (!unflushed) {
                    break;
                }
                ctx.flush();
                unflushed = false;
            } else if (body != null) {
                writeChunk(ctx);
                unflushed = true;
            } else {
                send(ctx, waiting.poll(), (ChannelPromise) waiting.poll());
                unflushed = true;
            }
        }
        if (unflushed) {
            ctx.flush();
        }
        return unflushed;
    }

    /** Writes the body's next chunk with the void promise; after the last one, the end with the body's promise. */
    private void writeChunk(ChannelHandlerContext ctx) {
        ByteBuf chunk = null;
        boolean end;
        try {
            chunk = body.readChunk(ctx.alloc());
            end = body.isEndOfInput();
            if (chunk == null && !end) {
                throw new IllegalStateException("a streamed body had no chunk ready: " + body);
            }
        } catch (Exception e) {
            ReferenceCountUtil.release(chunk);
            fail(ctx, e);
            return;
        }
        if (chunk != null) {
            ctx.write(chunk, ctx.voidPromise());
        }
        if (end && body != null) {
            ChannelPromise promise = bodyPromise.unvoid();
            boolean keepAlive = bodyKeepAlive;
            closeBody();
            ctx.write(LastHttpContent.EMPTY_LAST_CONTENT, promise)
                    .addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
        }
    }

    /** Gives up the body being sent: its input closed, its promise failed, the connection closed. */
    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        ChannelPromise promise = bodyPromise;
        closeBody();
        promise.tryFailure(cause);
        ctx.close();
    }

    /**
     * Releases the body being sent and everything waiting behind it, failing their promises with a
     * {@link ClosedChannelException} (a void one is left alone: a closed connection is no news to the pipeline).
     */
    private void discard() {
        if (body == null && waiting.isEmpty()) {
            return; // the usual end: nothing to fail, and no exception made (a stack trace per HTTP/2 stream)
        }
        Throwable cause = new ClosedChannelException();
        if (body != null) {
            ChannelPromise promise = bodyPromise;
            closeBody();
            failUnlessVoid(promise, cause);
        }
        for (Object msg; (msg = waiting.poll()) != null; ) {
            ChannelPromise promise = (ChannelPromise) waiting.poll();
            ReferenceCountUtil.release(msg);
            failUnlessVoid(promise, cause);
        }
    }

    private static void failUnlessVoid(ChannelPromise promise, Throwable cause) {
        if (!promise.isVoid()) {
            promise.tryFailure(cause);
        }
    }

    /** Closes the body's input, which releases what it holds, and forgets it. */
    private void closeBody() {
        ChunkedInput<ByteBuf> done = body;
        body = null;
        bodyPromise = null;
        try {
            done.close();
        } catch (Exception e) {
            LOG.warn("closing a streamed body's input failed", e);
        }
    }
}
