package io.hexstream.client;

import io.hexstream.codec.http.PipelinedReader;
import io.hexstream.codec.json.JsonHexReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler.ClientHandshakeStateEvent;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;

/**
 * The client's side of JSON-RPC over a message transport (execution-apis {@code authentication.md}): WebSocket text
 * messages (after a {@link WebSocketFrameReader}, which passes a message on as a text frame and continuation frames in
 * pieces as they arrive) or IPC (a byte stream, each message ending at its newline). Sends each {@link Exchange}
 * written to the channel as one message and feeds each reply, piece by piece as it arrives, through a
 * {@link JsonHexReader} into its {@link JsonBlobsReader}; replies are matched to requests in order. No message is held:
 * its length is bounded by its call instead ({@link JsonReplySize}), a reply longer than its call allows being
 * malformed. A reply its reader finds malformed fails its call and the rest of that message is dropped; anything else
 * (an unasked reply, a binary frame, an exception, a failed write, the connection's end) fails every call under way and
 * closes the connection.
 *
 * <p>Paced reading ({@link #pause()}, {@link #resume()}) is {@link PipelinedReader}'s. Ownership: every message read is
 * released here; the request's frame is handed on to the channel.
 */
final class MessageReplyReader extends PipelinedReader<JsonBlobsReader> {
    /** A request's JSON and the reader of its reply. */
    record Exchange(byte[] request, JsonBlobsReader reply) {}

    private static final byte NEWLINE = '\n';

    private final boolean webSocket;
    /** Completes once requests may be sent: the connection is up (IPC) or the upgrade is done (WebSocket). */
    private final CompletableFuture<Void> ready;

    /** Reads the current reply; null while none is read. */
    private JsonHexReader reader;
    /** Whether the rest of a failed reply is being dropped. */
    private boolean dropping;

    private long replyBytes;

    MessageReplyReader(boolean webSocket, boolean paced, CompletableFuture<Void> ready) {
        super(paced);
        this.webSocket = webSocket;
        this.ready = ready;
    }

    /** The bytes of the reply being read so far (an IPC reply's newline not counted). */
    long replyBytes() {
        return replyBytes;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!webSocket) {
            ready.complete(null);
        }
        super.channelActive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ClientHandshakeStateEvent.HANDSHAKE_COMPLETE) {
            ready.complete(null);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof Exchange exchange)) {
            ctx.write(msg, promise);
            return;
        }
        Object message = webSocket
                ? new TextWebSocketFrame(Unpooled.wrappedBuffer(exchange.request()))
                : Unpooled.wrappedBuffer(exchange.request(), new byte[] {NEWLINE});
        send(ctx, exchange.reply(), message, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (!webSocket && msg instanceof ByteBuf bytes) {
                lines(ctx, bytes);
            } else if (msg instanceof TextWebSocketFrame || msg instanceof ContinuationWebSocketFrame) {
                WebSocketFrame frame = (WebSocketFrame) msg;
                piece(ctx, frame.content(), frame.isFinalFragment());
            } else {
                failAll(new BadResponseException("unexpected " + msg.getClass().getSimpleName()));
                ctx.close();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** IPC: the pieces of replies in {@code bytes}, each reply ending at a newline. */
    private void lines(ChannelHandlerContext ctx, ByteBuf bytes) {
        while (bytes.isReadable() && ctx.channel().isActive()) {
            int newline = bytes.indexOf(bytes.readerIndex(), bytes.writerIndex(), NEWLINE);
            if (newline < 0) {
                piece(ctx, bytes, false);
                return;
            }
            piece(ctx, bytes.readSlice(newline - bytes.readerIndex()), true);
            bytes.skipBytes(1);
        }
    }

    /** A piece of a reply; {@code last} if the reply ends with it. */
    private void piece(ChannelHandlerContext ctx, ByteBuf chunk, boolean last) {
        if (current() == null && !dropping) {
            if (!chunk.isReadable() && last) {
                return; // an empty line, or an empty frame between replies
            }
            if (next() == null) {
                failAll(new BadResponseException("a reply to no request"));
                ctx.close();
                return;
            }
            replyBytes = 0;
            reader = new JsonHexReader(current().begin());
            current().reading(reader);
        }
        JsonBlobsReader reply = current();
        if (reply == null) {
            dropping = !last;
            return;
        }
        try {
            replyBytes += chunk.readableBytes();
            reply.counted(replyBytes);
            reader.feed(chunk);
            if (last) {
                reader.end();
                done();
                reader = null;
                reply.complete();
            }
        } catch (RuntimeException e) {
            done();
            reader = null;
            dropping = !last;
            reply.failed(e);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ready.completeExceptionally(new ClosedChannelException());
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ready.completeExceptionally(cause);
        super.exceptionCaught(ctx, cause);
    }

    @Override
    protected void failed(JsonBlobsReader reply, Throwable cause) {
        reader = null;
        reply.failed(cause);
    }
}
