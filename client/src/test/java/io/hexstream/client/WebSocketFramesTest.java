package io.hexstream.client;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PingWebSocketFrame;
import io.netty.handler.codec.http.websocketx.PongWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import org.junit.jupiter.api.Test;

/**
 * The client's WebSocket frame reading ({@link WebSocketFrameReader}) and control frames
 * ({@link WebSocketControlHandler}) on an {@link EmbeddedChannel}, fed server frames written byte by byte from RFC
 * 6455, section 5.2: a frame's payload passed on in the pieces it arrives in, nothing held; the frames a server must
 * not send refused with a Close; and a Pong written only while the channel is writable, at most one owed, reads held
 * meanwhile.
 */
class WebSocketFramesTest {

    @Test
    void aTextFramesPayloadIsPassedOnAsItArrives() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrameReader());
        byte[] payload = "{\"result\":[]}".getBytes(US_ASCII);
        // A 13-byte text frame split after its header and in its payload, then a final continuation of 2 bytes.
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x01, 13}));
        assertNull(channel.readInbound());
        channel.writeInbound(Unpooled.wrappedBuffer(payload, 0, 5));
        assertPiece(channel.readInbound(), TextWebSocketFrame.class, false, "{\"res");
        channel.writeInbound(Unpooled.wrappedBuffer(payload, 5, 8));
        assertPiece(channel.readInbound(), ContinuationWebSocketFrame.class, false, "ult\":[]}");
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, 2, ' ', '\n'}));
        assertPiece(channel.readInbound(), ContinuationWebSocketFrame.class, true, " \n");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aLongFramesLengthIsNotTakenAsMemoryToHold() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrameReader());
        // A text frame announcing 2^62 bytes: its first bytes are passed on at once.
        channel.writeInbound(
                Unpooled.wrappedBuffer(new byte[] {(byte) 0x81, 127, 0x40, 0, 0, 0, 0, 0, 0, 0, '[', '1'}));
        assertPiece(channel.readInbound(), TextWebSocketFrame.class, false, "[1");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void controlFramesArePassedOnWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrameReader());
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x89, 3, 'a'}));
        assertNull(channel.readInbound());
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {'b', 'c', (byte) 0x8A, 0}));
        PingWebSocketFrame ping = channel.readInbound();
        assertEquals("abc", ping.content().toString(US_ASCII));
        ping.release();
        PongWebSocketFrame pong = channel.readInbound();
        assertEquals(0, pong.content().readableBytes());
        pong.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void framesAServerMustNotSendAreAnsweredWithACloseAndFailTheConnection() {
        assertRefused(new byte[] {(byte) 0x81, (byte) 0x81, 1, 2, 3, 4, 'x'}, 1002, "a masked frame from the server");
        assertRefused(new byte[] {(byte) 0xC1, 1, 'x'}, 1002, "RSV bits set, no extension negotiated");
        assertRefused(new byte[] {(byte) 0x82, 1, 'x'}, 1003, "a binary message, not JSON-RPC text");
        assertRefused(new byte[] {(byte) 0x80, 1, 'x'}, 1002, "a continuation frame, no message begun");
        assertRefused(new byte[] {0x09, 0}, 1002, "a fragmented control frame");
        assertRefused(new byte[] {(byte) 0x89, 126, 0, 126}, 1002, "a control frame of 126 bytes");
        assertRefused(new byte[] {0x01, 1, 'x', (byte) 0x81, 0}, 1002, "a text frame inside a message");
        assertRefused(new byte[] {(byte) 0x83, 0}, 1002, "opcode 3");
    }

    @Test
    void aPingIsAnsweredAtOnceWhileWritable() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketControlHandler());
        channel.writeInbound(new PingWebSocketFrame(Unpooled.copiedBuffer("p1", US_ASCII)));
        assertPong(channel.readOutbound(), "p1");
        assertNull(channel.readOutbound());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void whileNotWritableOnlyTheLatestPongIsOwedAndReadsWait() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketControlHandler());
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
        channel.runPendingTasks(); // the change is told to the pipeline from a task
        for (int k = 0; k < 1000; k++) {
            channel.writeInbound(new PingWebSocketFrame(Unpooled.copiedBuffer("p" + k, US_ASCII)));
        }
        assertNull(channel.readOutbound());
        assertFalse(channel.config().isAutoRead());
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
        channel.runPendingTasks();
        assertPong(channel.readOutbound(), "p999");
        assertNull(channel.readOutbound());
        assertTrue(channel.config().isAutoRead());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aCloseIsAnsweredWithItsCodeAndTheConnectionClosed() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketControlHandler());
        channel.writeInbound(new CloseWebSocketFrame(1001, "going away"));
        CloseWebSocketFrame answer = channel.readOutbound();
        assertEquals(1001, answer.statusCode());
        answer.release();
        assertFalse(channel.isOpen());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aCloseWithAForbiddenCodeIsAnsweredWith1002() {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketControlHandler());
        ByteBuf code = Unpooled.buffer(2).writeShort(5000);
        channel.writeInbound(new CloseWebSocketFrame(true, 0, code));
        CloseWebSocketFrame answer = channel.readOutbound();
        assertEquals(1002, answer.statusCode());
        answer.release();
        assertFalse(channel.finishAndReleaseAll());
    }

    private static void assertRefused(byte[] frames, int code, String fault) {
        EmbeddedChannel channel = new EmbeddedChannel(new WebSocketFrameReader());
        BadResponseException refused =
                assertThrows(BadResponseException.class, () -> channel.writeInbound(Unpooled.wrappedBuffer(frames)));
        assertEquals("WebSocket: " + fault + " (RFC 6455), closed with " + code, refused.getMessage());
        CloseWebSocketFrame close = channel.readOutbound();
        assertEquals(code, close.statusCode());
        close.release();
        assertFalse(channel.isOpen());
        channel.finishAndReleaseAll();
    }

    private static void assertPiece(Object piece, Class<?> type, boolean last, String text) {
        WebSocketFrame frame = assertInstanceOf(WebSocketFrame.class, piece);
        try {
            assertInstanceOf(type, frame);
            assertEquals(last, frame.isFinalFragment());
            assertEquals(text, frame.content().toString(US_ASCII));
        } finally {
            frame.release();
        }
    }

    private static void assertPong(Object written, String payload) {
        PongWebSocketFrame pong = assertInstanceOf(PongWebSocketFrame.class, written);
        try {
            assertEquals(payload, pong.content().toString(US_ASCII));
        } finally {
            pong.release();
        }
    }
}
