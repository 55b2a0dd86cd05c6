package io.hexstream.server.ws;

import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CorruptedWebSocketFrameException;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between the frame aggregator and the {@link io.hexstream.server.message.MessageExchange}: passes on each whole data
 * message's payload (text, or binary taken as the same UTF-8 JSON), answers a ping with a pong of its payload, drops
 * pongs, and answers a close frame with one of the same status code, then closes the connection (RFC 6455 5.5).
 * Outbound, it lets nothing through after a close frame (5.5.1: no data frame after it): a reply then ready is closed
 * unsent.
 *
 * <p>What a peer makes it write is bounded: a pong or a close reply is written only while the channel is writable;
 * otherwise it is owed, reading stops ({@link ReadThrottle#pauseUntilWritable}) and it is written once the channel is
 * writable again. At most one pong is owed, to the latest ping (5.5.3 lets a pong answer only the most recent), and
 * none once a close is owed. A peer that pings and never reads thus holds the socket's send buffer and the channel's
 * high water mark, no more, until the stalled-write timeout closes its connection.
 *
 * <p>Closes as RFC 6455 7.4 says, the close frame written before the TCP connection is closed: a close with a status
 * code that is not to be sent (7.4.1, 7.4.2: 0-999, 1004-1006, 1015-2999 but the ones registered, 5000 and up) or a
 * protocol error found by the decoder {@code 1002}; a close reason or a text message that is not UTF-8 (8.1, checked
 * across fragments by the pipeline's {@code Utf8FrameValidator}) {@code 1007}; a message over the route's bound
 * {@code 1009} (message too big). One instance per connection.
 */
final class WebSocketFrames extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketFrames.class);

    private final ServerMetrics metrics;
    private ReadThrottle throttle;
    /** The latest ping's payload, not answered yet (the channel was not writable), or {@code null}. */
    private ByteBuf owedPong;
    /** The close frame to write once the channel is writable, or {@code null}. */
    private CloseWebSocketFrame owedClose;

    private boolean closeSent;
    private boolean flushWanted;

    WebSocketFrames(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        throttle = ctx.pipeline().get(ReadThrottle.class);
        if (throttle == null) {
            throw new IllegalStateException("WebSocketFrames needs a ReadThrottle in the pipeline");
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closeSent || owedClose != null) {
            ReferenceCountUtil.release(msg); // closing: nothing more is taken (RFC 6455 5.5.1)
        } else if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
            ctx.fireChannelRead(((WebSocketFrame) msg).content());
        } else if (msg instanceof PingWebSocketFrame ping) {
            if (owedPong != null) {
                owedPong.release(); // 5.5.3: only the latest ping needs its pong
            }
            owedPong = ping.content();
            writeOwed(ctx);
        } else if (msg instanceof CloseWebSocketFrame close) {
            CloseWebSocketFrame reply = reply(close);
            close.release();
            sendClose(ctx, reply);
        } else {
            ReferenceCountUtil.release(msg); // a pong
        }
    }

    /** The answer to {@code close}: its status code echoed, {@code 1002} for one not to be sent, {@code 1007}. */
    private static CloseWebSocketFrame reply(CloseWebSocketFrame close) {
        ByteBuf body = close.content();
        if (body.readableBytes() < 2) {
            return new CloseWebSocketFrame(); // no status code (the decoder refuses a body of one byte)
        }
        int status = body.getUnsignedShort(body.readerIndex());
        if (!sendable(status)) {
            return new CloseWebSocketFrame(WebSocketCloseStatus.PROTOCOL_ERROR);
        }
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(body.nioBuffer(body.readerIndex() + 2, body.readableBytes() - 2));
        } catch (CharacterCodingException e) {
            return new CloseWebSocketFrame(WebSocketCloseStatus.INVALID_PAYLOAD_DATA);
        }
        return new CloseWebSocketFrame(status, null);
    }

    /**
     * Whether {@code status} may be sent in a close frame (RFC 6455 7.4.1 and the IANA registry it sets up, 7.4.2):
     * 1000-1003 and 1007-1014 of the protocol's own, 3000-4999 for libraries and applications.
     */
    static boolean sendable(int status) {
        return status >= 1000 && status <= 1003 || status >= 1007 && status <= 1014 || status >= 3000 && status <= 4999;
    }

    /** Writes the owed close or pong if the channel takes it now; otherwise stops reading until it does. */
    private void writeOwed(ChannelHandlerContext ctx) {
        if (owedClose == null && owedPong == null) {
            return;
        }
        if (!ctx.channel().isWritable()) {
            throttle.pauseUntilWritable();
            return;
        }
        if (owedClose != null) {
            CloseWebSocketFrame close = owedClose;
            owedClose = null;
            ctx.writeAndFlush(close).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        PongWebSocketFrame pong = new PongWebSocketFrame(owedPong);
        owedPong = null; // first: the write may change writability, and so call this again, before it returns
        flushWanted = true;
        ctx.write(pong);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (flushWanted) {
            flushWanted = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        writeOwed(ctx);
        if (flushWanted) {
            flushWanted = false;
            ctx.flush();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (closeSent) {
            if (msg instanceof ChunkedInput<?> input) {
                input.close();
            } else {
                ReferenceCountUtil.release(msg);
            }
            promise.tryFailure(new IllegalStateException("the WebSocket is closing"));
            return;
        }
        closeSent = msg instanceof CloseWebSocketFrame;
        ctx.write(msg, promise);
    }

    /** Sends {@code close} (unless one was sent or is owed), then closes the connection once it is written. */
    private void sendClose(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        if (closeSent || owedClose != null) {
            close.release();
            if (closeSent) {
                ctx.close();
            }
            return;
        }
        if (owedPong != null) {
            owedPong.release(); // no pong is owed once the connection closes
            owedPong = null;
        }
        owedClose = close;
        writeOwed(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) { // the aggregator: the message's frames add up to too much
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
            sendClose(ctx, new CloseWebSocketFrame(WebSocketCloseStatus.MESSAGE_TOO_BIG));
            return;
        }
        if (cause instanceof CorruptedWebSocketFrameException corrupt) { // the decoder, or the UTF-8 of a text message
            if (corrupt.closeStatus().equals(WebSocketCloseStatus.MESSAGE_TOO_BIG)) {
                metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES); // one frame too big
            }
            LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
            sendClose(ctx, new CloseWebSocketFrame(corrupt.closeStatus()));
            return;
        }
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseOwed();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseOwed();
    }

    private void releaseOwed() {
        if (owedPong != null) {
            owedPong.release();
            owedPong = null;
        }
        if (owedClose != null) {
            owedClose.release();
            owedClose = null;
        }
    }
}
