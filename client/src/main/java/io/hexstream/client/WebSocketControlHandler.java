package io.hexstream.client;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;

/**
 * Answers the server's WebSocket control frames (RFC 6455, section 5.5) so that a server that sends them and never
 * reads cannot fill the client's memory. A Ping is answered with a Pong of its payload only while the channel is
 * writable; otherwise the Pong is owed (at most one: the latest Ping's, as section 5.5.3 allows) and socket reads stop
 * until the channel is writable again, when the owed Pong is sent and reading goes on. What waits to be written is so
 * bounded by the channel's write buffer high water mark and one Pong, whatever the server sends. A Pong is dropped; a
 * Close is answered once with a Close of its status code (section 5.5.1; 1002 for a code section 7.4 does not allow on
 * the wire) and the connection closed. Data frames are passed on.
 *
 * <p>Reads asked for while the channel is not writable ({@link #read}) are held, and auto-read is turned off meanwhile,
 * so a paced reader's reads and Netty's own wait alike. Ownership: the control frames are released here.
 */
final class WebSocketControlHandler extends ChannelDuplexHandler {
    /** The payload of the latest Ping not yet answered; null if none is owed. */
    private byte[] owedPong;

    private boolean closing;
    /** A read was asked for while the channel was not writable. */
    private boolean readHeld;
    /** Auto-read was turned off here while the channel was not writable. */
    private boolean autoReadHeld;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof PingWebSocketFrame ping) {
            owedPong = ByteBufUtil.getBytes(ping.content());
            ping.release();
            pong(ctx);
        } else if (msg instanceof PongWebSocketFrame pong) {
            pong.release();
        } else if (msg instanceof CloseWebSocketFrame close) {
            int status = close.statusCode();
            close.release();
            if (!closing) {
                closing = true;
                owedPong = null;
                CloseWebSocketFrame answer = status < 0
                        ? new CloseWebSocketFrame(true, 0, Unpooled.EMPTY_BUFFER)
                        : new CloseWebSocketFrame(
                                sendable(status) ? status : WebSocketCloseStatus.PROTOCOL_ERROR.code(), null);
                ctx.channel().writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
            }
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * Whether {@code status} may be sent in a Close (RFC 6455, section 7.4): a code the RFC or IANA's registry defines
     * for the wire, or one of 3000 to 4999 (registered and private).
     */
    private static boolean sendable(int status) {
        return status >= 1000 && status <= 1003 || status >= 1007 && status <= 1014 || status >= 3000 && status <= 4999;
    }

    /** Sends the owed Pong if the channel is writable; holds reads while it is not. */
    private void pong(ChannelHandlerContext ctx) {
        if (owedPong != null && !closing && ctx.channel().isWritable()) {
            ctx.channel().writeAndFlush(new PongWebSocketFrame(Unpooled.wrappedBuffer(owedPong)));
            owedPong = null;
        }
        if (!ctx.channel().isWritable()) {
            ChannelConfig config = ctx.channel().config();
            if (config.isAutoRead()) {
                config.setAutoRead(false);
                autoReadHeld = true;
            }
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            ctx.read();
        } else {
            readHeld = true;
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            pong(ctx);
        }
        if (ctx.channel().isWritable()) {
            if (autoReadHeld) {
                autoReadHeld = false;
                ctx.channel().config().setAutoRead(true);
            }
            if (readHeld) {
                readHeld = false;
                ctx.read();
            }
        }
        ctx.fireChannelWritabilityChanged();
    }
}
