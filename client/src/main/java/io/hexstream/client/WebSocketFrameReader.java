package io.hexstream.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.netty.handler.codec.http.websocketx.WebSocketFrameDecoder;
import java.util.List;

/**
 * The client's WebSocket frame decoder (RFC 6455, section 5.2): the server's frames read as they arrive, no data frame
 * held whole whatever its length. A text message's payload is passed on piece by piece as the socket delivers it, a
 * {@link TextWebSocketFrame} for its first piece and {@link ContinuationWebSocketFrame}s after it, the last piece of
 * the message final; bounding a message's length is its reader's ({@link MessageReplyReader}). Control frames (at most
 * {@value #MAX_CONTROL_PAYLOAD} bytes, section 5.5) are passed on whole: {@link PingWebSocketFrame},
 * {@link PongWebSocketFrame}, {@link CloseWebSocketFrame}.
 *
 * <p>A frame a server must not send fails the connection (section 7.1.7): masked (section 5.1), with RSV bits and no
 * extension (section 5.2), an unknown opcode, a fragmented or longer control frame (section 5.5), a continuation with
 * no message begun or a message begun inside another (section 5.4) are answered with a Close of 1002, a binary message
 * (JSON-RPC's are text) with 1003; a {@link BadResponseException} naming the fault is fired, and the rest of the input
 * is dropped.
 *
 * <p>Ownership: each piece passed on is a retained slice of the input, the next handler's to release.
 */
final class WebSocketFrameReader extends ByteToMessageDecoder implements WebSocketFrameDecoder {
    /** A control frame's largest payload (RFC 6455, section 5.5). */
    static final int MAX_CONTROL_PAYLOAD = 125;

    private static final int CONTINUATION = 0x0;
    private static final int TEXT = 0x1;
    private static final int BINARY = 0x2;
    private static final int CLOSE = 0x8;
    private static final int PING = 0x9;
    private static final int PONG = 0xA;

    private static final int HEADER = 0;
    private static final int DATA = 1;
    private static final int CONTROL = 2;
    private static final int FAILED = 3;

    private int state = HEADER;
    private int opcode;
    private boolean fin;
    /** Payload bytes of the frame being read still to come. */
    private long remaining;
    /** Whether a text message has begun and its final frame has not ended. */
    private boolean inMessage;
    /** Whether no piece of the message being read has been passed on yet. */
    private boolean firstPiece;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (true) {
            switch (state) {
                case HEADER -> {
                    if (!header(ctx, in)) {
                        return;
                    }
                }
                case DATA -> {
                    if (!data(in, out)) {
                        return;
                    }
                }
                case CONTROL -> {
                    if (in.readableBytes() < remaining) {
                        return;
                    }
                    ByteBuf payload = in.readRetainedSlice((int) remaining);
                    out.add(
                            switch (opcode) {
                                case PING -> new PingWebSocketFrame(payload);
                                case PONG -> new PongWebSocketFrame(payload);
                                default -> new CloseWebSocketFrame(true, 0, payload);
                            });
                    state = HEADER;
                }
                default -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
            }
        }
    }

    /** Reads a frame's header if it is all in; false if more bytes are needed or the frame is refused. */
    private boolean header(ChannelHandlerContext ctx, ByteBuf in) {
        if (in.readableBytes() < 2) {
            return false;
        }
        int first = in.getUnsignedByte(in.readerIndex());
        int second = in.getUnsignedByte(in.readerIndex() + 1);
        if ((second & 0x80) != 0) {
            return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "a masked frame from the server");
        }
        int lengthCode = second & 0x7F;
        int extended = lengthCode == 126 ? 2 : lengthCode == 127 ? 8 : 0;
        if (in.readableBytes() < 2 + extended) {
            return false;
        }
        in.skipBytes(2);
        long length = extended == 2 ? in.readUnsignedShort() : extended == 8 ? in.readLong() : lengthCode;
        fin = (first & 0x80) != 0;
        opcode = first & 0x0F;
        if ((first & 0x70) != 0) {
            return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "RSV bits set, no extension negotiated");
        }
        if (length < 0) {
            return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "a payload length with its top bit set");
        }
        remaining = length;
        switch (opcode) {
            case PING, PONG, CLOSE -> {
                if (!fin || length > MAX_CONTROL_PAYLOAD) {
                    return fail(
                            ctx,
                            in,
                            WebSocketCloseStatus.PROTOCOL_ERROR,
                            !fin ? "a fragmented control frame" : "a control frame of " + length + " bytes");
                }
                state = CONTROL;
            }
            case TEXT -> {
                if (inMessage) {
                    return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "a text frame inside a message");
                }
                inMessage = true;
                firstPiece = true;
                state = DATA;
            }
            case CONTINUATION -> {
                if (!inMessage) {
                    return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "a continuation frame, no message begun");
                }
                state = DATA;
            }
            case BINARY -> {
                return fail(ctx, in, WebSocketCloseStatus.INVALID_MESSAGE_TYPE, "a binary message, not JSON-RPC text");
            }
            default -> {
                return fail(ctx, in, WebSocketCloseStatus.PROTOCOL_ERROR, "opcode " + opcode);
            }
        }
        return true;
    }

    /** Passes on what is in of the data frame's payload; false if more bytes are needed. */
    private boolean data(ByteBuf in, List<Object> out) {
        int n = (int) Math.min(remaining, in.readableBytes());
        remaining -= n;
        boolean last = remaining == 0 && fin;
        if (n > 0 || last) {
            ByteBuf piece = in.readRetainedSlice(n);
            out.add(
                    firstPiece
                            ? new TextWebSocketFrame(last, 0, piece)
                            : new ContinuationWebSocketFrame(last, 0, piece));
            firstPiece = false;
        }
        if (remaining > 0) {
            return false;
        }
        inMessage = !fin;
        state = HEADER;
        return true;
    }

    /** Fails the connection: a Close of {@code status}, the fault fired, the rest dropped. Returns false. */
    private boolean fail(ChannelHandlerContext ctx, ByteBuf in, WebSocketCloseStatus status, String fault) {
        state = FAILED;
        in.skipBytes(in.readableBytes());
        // From the tail, through the frame encoder the handshake installed after this decoder.
        ctx.channel().writeAndFlush(new CloseWebSocketFrame(status)).addListener(ChannelFutureListener.CLOSE);
        ctx.fireExceptionCaught(
                new BadResponseException("WebSocket: " + fault + " (RFC 6455), closed with " + status.code()));
        return false;
    }
}
