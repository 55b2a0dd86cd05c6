package io.hexstream.codec.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.codec.testing.BlobFixtures;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedStream;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A chunked body as HTTP content: bare chunks, one {@code LastHttpContent} at the end, framing intact on keep-alive. */
class HttpBodyInputTest {

    @Test
    void chunksComeBareAndTheLastEndsTheMessage() throws Exception {
        List<BlobFixtures.Entry> entries = BlobFixtures.randomEntries(new Random(3), 2, 0.0);
        byte[] expected = BlobFixtures.jackson(1L, entries);
        HttpBodyInput input = new HttpBodyInput(new JsonBodyInput(BlobFixtures.body(1L, entries), 64 * 1024));
        assertEquals(expected.length, input.length());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int bare = 0;
        try {
            for (Object chunk; (chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null; ) {
                assertFalse(input.isEndOfInput() && chunk instanceof ByteBuf, "the last chunk is a LastHttpContent");
                ByteBuf bytes = chunk instanceof ByteBufHolder holder ? holder.content() : (ByteBuf) chunk;
                if (chunk instanceof ByteBuf) {
                    bare++;
                } else {
                    assertInstanceOf(LastHttpContent.class, chunk);
                    assertTrue(input.isEndOfInput());
                }
                out.writeBytes(ByteBufUtil.getBytes(bytes));
                bytes.release();
            }
        } finally {
            input.close();
        }
        assertEquals(expected.length / (64 * 1024), bare); // full 64 KiB chunks, then the last with the rest
        assertArrayEquals(expected, out.toByteArray());
        assertEquals(expected.length, input.progress());
    }

    @Test
    void anEmptyBodyIsOneEmptyLastContent() throws Exception {
        HttpBodyInput input = new HttpBodyInput(new ChunkedStream(new ByteArrayInputStream(new byte[0])));
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, input.readChunk(ByteBufAllocator.DEFAULT));
        assertTrue(input.isEndOfInput());
        assertNull(input.readChunk(ByteBufAllocator.DEFAULT));
        input.close();
    }

    /** The encoder's state is back at the start after each body: a second response on the connection is framed right. */
    @Test
    void twoResponsesInARowOnOneConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler(),
                new JsonResponseEncoder(1024));
        var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        List<BlobFixtures.Entry> entries = BlobFixtures.randomEntries(new Random(4), 1, 0.0);
        byte[] body = BlobFixtures.jackson(2L, entries);
        for (int i = 0; i < 2; i++) {
            JsonBody json = BlobFixtures.body(2L, entries);
            assertTrue(channel.writeAndFlush(JsonResponse.of(request, HttpResponseStatus.OK, json)).isSuccess());
        }
        request.release();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            assertFalse(msg instanceof HttpContent, "the encoder writes bytes");
            ByteBuf buf = (ByteBuf) msg;
            out.writeBytes(ByteBufUtil.getBytes(buf));
            buf.release();
        }
        String head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            expected.writeBytes(head.getBytes(US_ASCII));
            expected.writeBytes(body);
        }
        assertEquals(new String(expected.toByteArray(), US_ASCII), new String(out.toByteArray(), US_ASCII));
        assertFalse(channel.finishAndReleaseAll());
    }
}
