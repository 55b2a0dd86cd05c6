package io.hexstream.codec.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.testing.BlobFixtures;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipelineException;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Responses of exact length as HTTP: head, bare chunks, end; keep-alive, close; pipelines that cannot carry them. */
class StreamedResponseEncoderTest {
    private static final int CHUNK = 64 * 1024;

    /** Everything the channel wrote, concatenated; every outbound buffer is read and released. */
    private static byte[] written(EmbeddedChannel channel) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object msg; (msg = channel.readOutbound()) != null; ) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes).release();
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static int headEnd(byte[] response) {
        for (int i = 3; i < response.length; i++) {
            if (response[i - 3] == '\r' && response[i - 2] == '\n' && response[i - 1] == '\r' && response[i] == '\n') {
                return i + 1;
            }
        }
        throw new AssertionError("no end of headers");
    }

    @Test
    void keepAliveResponseHasExactLengthAndJsonType() {
        List<Entry> entries = BlobFixtures.randomEntries(new Random(9), 3, 0.3);
        byte[] expected = BlobFixtures.jackson(7L, entries);
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK));
        var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        channel.writeAndFlush(StreamedResponse.of(request, HttpResponseStatus.OK, BlobFixtures.body(7L, entries)));
        request.release();

        byte[] response = written(channel);
        int bodyStart = headEnd(response);
        String head = new String(response, 0, bodyStart, US_ASCII);
        assertEquals(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + expected.length + "\r\n\r\n",
                head);
        assertArrayEquals(expected, Arrays.copyOfRange(response, bodyStart, response.length));
        assertTrue(channel.isOpen());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void closeIsHonouredAfterTheLastByte() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK));
        JsonBody body = BlobFixtures.body("a", List.of());
        ChannelFuture done = channel.writeAndFlush(
                new StreamedResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST, false, body));
        byte[] response = written(channel);
        assertTrue(done.isSuccess());
        assertEquals(
                "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 38\r\n"
                        + "connection: close\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":[]}",
                new String(response, US_ASCII));
        assertFalse(channel.isOpen());
        assertEquals(0, body.refCnt());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void http10KeepAliveIsSaidExplicitly() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK));
        var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.POST, "/");
        request.headers().set("connection", "keep-alive");
        channel.writeAndFlush(StreamedResponse.of(request, HttpResponseStatus.OK, BlobFixtures.body(null, List.of())));
        request.release();
        String response = new String(written(channel), US_ASCII);
        assertTrue(response.startsWith("HTTP/1.0 200 OK\r\n"), response);
        assertTrue(response.contains("\r\nconnection: keep-alive\r\n"), response);
        assertTrue(response.endsWith("\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":[]}"), response);
        assertTrue(channel.isOpen());
        assertFalse(channel.finishAndReleaseAll());
    }

    /** A ChunkedWriteHandler between it and the socket would hold its chunks unflushed: refused. */
    @Test
    void aChunkedWriteHandlerOnTheSocketSideIsRefused() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new ChunkedWriteHandler());
        channel.pipeline().addLast(new StreamedResponseEncoder(CHUNK));
        ChannelPipelineException refused = assertThrows(ChannelPipelineException.class, channel::checkException);
        assertEquals(
                "StreamedResponseEncoder streams its bodies itself: a ChunkedWriteHandler between it and the socket"
                        + " would hold its chunks unflushed",
                refused.getCause().getMessage());
        assertNull(channel.pipeline().get(StreamedResponseEncoder.class));
        assertFalse(channel.finishAndReleaseAll());
    }

    /** One on its application side (for other chunked inputs) is fine, and a response passes it. */
    @Test
    void aChunkedWriteHandlerOnTheApplicationSideIsFine() {
        EmbeddedChannel channel = new EmbeddedChannel(
                new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK), new ChunkedWriteHandler());
        List<Entry> entries = BlobFixtures.randomEntries(new Random(5), 2, 0.0);
        byte[] expected = BlobFixtures.jackson(5L, entries);
        assertTrue(channel.writeAndFlush(new StreamedResponse(
                        HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, BlobFixtures.body(5L, entries)))
                .isSuccess());
        byte[] response = written(channel);
        assertArrayEquals(expected, Arrays.copyOfRange(response, headEnd(response), response.length));
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aResponseWrittenToAClosedChannelIsReleased() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK));
        channel.close();
        JsonBody body = BlobFixtures.body(1L, BlobFixtures.randomEntries(new Random(1), 1, 0));
        ChannelFuture done =
                channel.writeAndFlush(new StreamedResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, body));
        assertFalse(done.isSuccess());
        assertEquals(0, body.refCnt());
        assertFalse(channel.finishAndReleaseAll());
    }

    /** A compressor would corrupt the body's bare buffers: the encoder refuses to join its pipeline. */
    @Test
    void aPipelineWithACompressorIsRefused() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new HttpContentCompressor());
        channel.pipeline().addLast(new StreamedResponseEncoder(CHUNK));
        ChannelPipelineException refused = assertThrows(ChannelPipelineException.class, channel::checkException);
        assertEquals(
                "StreamedResponseEncoder cannot share a pipeline with HttpContentCompressor: it would mark the"
                        + " head compressed and chunked and pass the body's bare buffers through as they are",
                refused.getCause().getMessage());
        assertNull(channel.pipeline().get(StreamedResponseEncoder.class));
        assertFalse(channel.finishAndReleaseAll());
    }

    /** Between head and end, each chunk reaches the HTTP encoder as a bare buffer, not wrapped per chunk. */
    @Test
    void chunksAreBareBuffersBetweenTheHeadAndTheEnd() {
        List<Object> seen = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        seen.add(msg instanceof ByteBuf buf ? buf.readableBytes() : msg);
                        ctx.write(msg, promise);
                    }
                },
                new StreamedResponseEncoder(CHUNK));
        List<Entry> entries = BlobFixtures.randomEntries(new Random(3), 2, 0.0);
        byte[] expected = BlobFixtures.jackson(1L, entries);
        assertTrue(channel.writeAndFlush(new StreamedResponse(
                        HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, BlobFixtures.body(1L, entries)))
                .isSuccess());
        assertInstanceOf(HttpResponse.class, seen.get(0));
        List<Object> chunks = seen.subList(1, seen.size() - 1);
        assertEquals((expected.length + CHUNK - 1) / CHUNK, chunks.size()); // a chunk may end a byte short
        assertEquals(
                expected.length,
                chunks.stream().mapToInt(size -> (Integer) size).sum());
        assertSame(LastHttpContent.EMPTY_LAST_CONTENT, seen.get(seen.size() - 1));
        assertTrue(channel.finishAndReleaseAll());
    }

    /** The HTTP encoder's state is back at the start after each body: a second response is framed right. */
    @Test
    void twoResponsesInARowOnOneConnection() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(1024));
        var request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/");
        List<Entry> entries = BlobFixtures.randomEntries(new Random(4), 1, 0.0);
        byte[] body = BlobFixtures.jackson(2L, entries);
        for (int i = 0; i < 2; i++) {
            JsonBody json = BlobFixtures.body(2L, entries);
            assertTrue(channel.writeAndFlush(StreamedResponse.of(request, HttpResponseStatus.OK, json))
                    .isSuccess());
        }
        request.release();
        String head =
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            expected.writeBytes(head.getBytes(US_ASCII));
            expected.writeBytes(body);
        }
        assertEquals(new String(expected.toByteArray(), US_ASCII), new String(written(channel), US_ASCII));
        assertFalse(channel.finishAndReleaseAll());
    }

    /** Head and chunks go with the void promise (no promise or listener per write); only the end is tracked. */
    @Test
    void onlyTheEndOfABodyCarriesAPromise() {
        List<Boolean> voids = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        voids.add(promise.isVoid());
                        ctx.write(msg, promise);
                    }
                },
                new StreamedResponseEncoder(CHUNK));
        List<Entry> entries = BlobFixtures.randomEntries(new Random(6), 2, 0.0);
        ChannelFuture done = channel.writeAndFlush(new StreamedResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, BlobFixtures.body(6L, entries)));
        assertTrue(done.isSuccess());
        int chunks = (BlobFixtures.jackson(6L, entries).length + CHUNK - 1) / CHUNK;
        List<Boolean> expected = new ArrayList<>();
        for (int i = 0; i < 1 + chunks; i++) {
            expected.add(true);
        }
        expected.add(false);
        assertEquals(expected, voids);
        assertTrue(channel.finishAndReleaseAll());
    }

    /**
     * A chunk whose write fails (here the third write, the second chunk) has no promise: its failure comes back as
     * {@code exceptionCaught}, and the encoder closes the connection, which closes the body's input (releasing it) and
     * fails the response's promise; the exception goes on down the pipeline.
     */
    @Test
    void aFailedChunkWriteClosesTheConnectionAndReleasesTheBody() {
        IOException broken = new IOException("broken pipe");
        List<Throwable> caught = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(
                new HttpResponseEncoder(),
                new ChannelOutboundHandlerAdapter() {
                    private int writes;

                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        if (++writes == 3) {
                            ReferenceCountUtil.release(msg);
                            promise.setFailure(broken);
                        } else {
                            ctx.write(msg, promise);
                        }
                    }
                },
                new StreamedResponseEncoder(CHUNK),
                new ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        caught.add(cause);
                    }
                });
        JsonBody body = BlobFixtures.body(8L, BlobFixtures.randomEntries(new Random(8), 2, 0.0));
        ChannelFuture done =
                channel.writeAndFlush(new StreamedResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, body));
        channel.runPendingTasks();
        assertFalse(channel.isOpen());
        assertEquals(List.of(broken), caught);
        assertEquals(0, body.refCnt());
        assertInstanceOf(ClosedChannelException.class, done.cause());
        written(channel);
        assertFalse(channel.finishAndReleaseAll());
    }

    /** A message written while a body is being sent waits behind it, and behind its end. */
    @Test
    void aMessageWrittenDuringABodyFollowsIt() {
        EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK));
        List<Entry> entries = BlobFixtures.randomEntries(new Random(7), 1, 0.0);
        byte[] body = BlobFixtures.jackson(3L, entries);
        ChannelFuture first = channel.write(new StreamedResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, BlobFixtures.body(3L, entries)));
        FullHttpResponse after = new DefaultFullHttpResponse(
                HttpVersion.HTTP_1_1, HttpResponseStatus.ACCEPTED, Unpooled.copiedBuffer("next", US_ASCII));
        after.headers().set("content-length", 4);
        ChannelFuture second = channel.writeAndFlush(after);
        assertTrue(first.isSuccess());
        assertTrue(second.isSuccess());
        String expected = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + body.length
                + "\r\n\r\n" + new String(body, US_ASCII) + "HTTP/1.1 202 Accepted\r\ncontent-length: 4\r\n\r\nnext";
        assertEquals(expected, new String(written(channel), US_ASCII));
        assertFalse(channel.finishAndReleaseAll());
    }

    /**
     * Closing the connection mid-body releases the body and what waits behind it, and fails their promises; the head,
     * written with the void promise and not flushed, comes back as {@code exceptionCaught}.
     */
    @Test
    void closingMidBodyReleasesTheBodyAndWhatWaits() {
        List<Throwable> caught = new ArrayList<>();
        EmbeddedChannel channel = new EmbeddedChannel(
                new HttpResponseEncoder(), new StreamedResponseEncoder(CHUNK), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        caught.add(cause);
                    }
                });
        JsonBody body = BlobFixtures.body(4L, BlobFixtures.randomEntries(new Random(2), 2, 0.0));
        ChannelFuture first =
                channel.write(new StreamedResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, body));
        ByteBuf waiting = Unpooled.copiedBuffer("waits", US_ASCII);
        ChannelFuture second = channel.write(waiting);
        channel.close();
        assertEquals(0, body.refCnt());
        assertEquals(0, waiting.refCnt());
        assertInstanceOf(ClosedChannelException.class, first.cause());
        assertInstanceOf(ClosedChannelException.class, second.cause());
        assertEquals(1, caught.size());
        assertInstanceOf(ClosedChannelException.class, caught.get(0));
        written(channel);
        assertFalse(channel.finishAndReleaseAll());
    }

    /**
     * Each flush empties the queue and turns the channel writable again, firing {@code channelWritabilityChanged} from
     * within the flush: the chunks still go out from one loop, not one nested drain per flush (a 250 MB body would
     * overflow the stack).
     */
    @Test
    void aFlushThatTurnsTheChannelWritableDoesNotNestTheDrain() {
        int[] depths = {Integer.MAX_VALUE, 0};
        EmbeddedChannel channel = new EmbeddedChannel(
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        int depth = Thread.currentThread().getStackTrace().length;
                        depths[0] = Math.min(depths[0], depth);
                        depths[1] = Math.max(depths[1], depth);
                        ctx.write(msg, promise);
                    }
                },
                new StreamedResponseEncoder(1024));
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1, 2));
        List<Entry> entries = BlobFixtures.randomEntries(new Random(10), 2, 0.0);
        byte[] expected = BlobFixtures.jackson(10L, entries);
        assertTrue(channel.writeAndFlush(new StreamedResponse(
                        HttpVersion.HTTP_1_1, HttpResponseStatus.OK, true, BlobFixtures.body(10L, entries)))
                .isSuccess());
        assertTrue(expected.length / 1024 > 500, "hundreds of flushes");
        assertTrue(depths[1] - depths[0] < 40, "stack depths of the writes from " + depths[0] + " to " + depths[1]);
        assertTrue(channel.finishAndReleaseAll());
    }
}
