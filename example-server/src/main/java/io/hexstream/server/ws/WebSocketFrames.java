package io.hexstream.server.ws;

import io.hexstream.server.metrics.ServerMetrics;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Between the frame aggregator and the {@link io.hexstream.server.message.MessageExchange}: passes on each whole data
 * message's payload (text, or binary taken as the same UTF-8 JSON), answers a ping with a pong of its payload, drops
 * pongs, and answers a close frame with one of the same status code, then closes the connection (RFC 6455 5.5).
 * Outbound, it lets nothing through after a close frame (5.5.1: no data frame after it): a reply then ready is closed
 * unsent. A message over {@code --max-request-bytes} closes the connection with {@code 1009} (message too big). One
 * instance per connection.
 */
final class WebSocketFrames extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketFrames.class);

    private final ServerMetrics metrics;
    private boolean closeSent;

    WebSocketFrames(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
            ctx.fireChannelRead(((WebSocketFrame) msg).content());
        } else if (msg instanceof PingWebSocketFrame ping) {
            ctx.writeAndFlush(new PongWebSocketFrame(ping.content()));
        } else if (msg instanceof CloseWebSocketFrame close) {
            int status = close.statusCode();
            close.release();
            sendClose(ctx, status < 0 ? new CloseWebSocketFrame() : new CloseWebSocketFrame(status, null));
        } else {
            ReferenceCountUtil.release(msg); // a pong
        }
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

    /** Sends {@code close} (unless one was sent) and closes the connection once it is written. */
    private void sendClose(ChannelHandlerContext ctx, CloseWebSocketFrame close) {
        if (closeSent) {
            close.release();
            ctx.close();
            return;
        }
        ctx.writeAndFlush(close).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException) { // the aggregator: the message's frames add up to too much
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES);
            sendClose(ctx, new CloseWebSocketFrame(WebSocketCloseStatus.MESSAGE_TOO_BIG));
            return;
        }
        if (cause instanceof CorruptedWebSocketFrameException corrupt
                && corrupt.closeStatus().equals(WebSocketCloseStatus.MESSAGE_TOO_BIG)) {
            metrics.refused(ServerMetrics.Limit.MAX_REQUEST_BYTES); // one frame too big: the decoder sent 1009
        }
        LOG.debug("closing {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
