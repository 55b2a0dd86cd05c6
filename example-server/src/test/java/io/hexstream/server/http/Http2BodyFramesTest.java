package io.hexstream.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Http2BodyFrames} under Netty's own remote flow controller, on an {@link EmbeddedChannel} whose water mark (8
 * KiB, 16 KiB) gives a turn 32 KiB (the controller's least): a turn writes its share, across chunks, and takes a chunk
 * only when it has bytes for it; the stream's window and the connection's are never exceeded (RFC 9113 6.9.1), whatever
 * streams share them. Every frame is read back (RFC 9113 4.1, 6.1) and its payload compared with the chunks' bytes.
 */
class Http2BodyFramesTest {
    private static final int STREAM = 3;

    private final DefaultHttp2Connection connection = new DefaultHttp2Connection(true);
    private final DefaultHttp2RemoteFlowController flow = new DefaultHttp2RemoteFlowController(connection);
    private EmbeddedChannel channel;
    private Http2Stream stream;

    @BeforeEach
    void open() throws Http2Exception {
        connection.remote().flowController(flow);
        channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter());
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(8 * 1024, 16 * 1024));
        flow.channelHandlerContext(channel.pipeline().firstContext());
        stream = connection.remote().createStream(STREAM, false);
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    @Test
    void aTurnWritesItsShareAcrossChunksTakingAChunkOnlyWithBytesForIt() throws Http2Exception {
        widen(1 << 20, 1 << 20);
        byte[][] chunks = {bytes(50_000, 1), bytes(50_000, 2)};
        Chunks input = new Chunks(chunks);
        Http2BodyFrames body = queue(stream, input.chunked, 100_000);

        flow.writePendingBytes();
        List<Frame> first = frames();
        assertEquals(List.of(16_384, 16_384), lengths(first), "the share, 32 KiB, cutting the first chunk");
        assertEquals(1, input.taken());
        flow.writePendingBytes();
        List<Frame> second = frames();
        assertEquals(List.of(16_384, 848, 15_536), lengths(second), "the first chunk's rest, then the second's start");
        assertEquals(2, input.taken());
        flow.writePendingBytes();
        List<Frame> third = frames();
        assertEquals(List.of(16_384, 16_384), lengths(third));
        assertEquals(0, third.get(1).flags, "no END_STREAM before the body's end");
        flow.writePendingBytes();
        List<Frame> last = frames();
        assertEquals(List.of(1_696), lengths(last));
        assertEquals(0x1, last.get(0).flags, "END_STREAM on the body's last frame");

        List<Frame> all = new ArrayList<>(first);
        all.addAll(second);
        all.addAll(third);
        all.addAll(last);
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.writeBytes(chunks[0]);
        both.writeBytes(chunks[1]);
        assertArrayEquals(both.toByteArray(), payload(all));
        assertEquals(0, body.size());
        assertTrue(input.closed);
    }

    @Test
    void theStreamWindowCutsAChunkAndItsUpdateLetsTheRestGo() throws Http2Exception {
        widen(20_000, 1 << 20);
        byte[] chunk = bytes(100_000, 3);
        Http2BodyFrames body = queue(stream, new Chunks(chunk).chunked, chunk.length);

        flow.writePendingBytes();
        List<Frame> cut = frames();
        assertEquals(List.of(16_384, 3_616), lengths(cut));
        assertEquals(80_000, body.size());
        assertEquals(0, flow.windowSize(stream));
        flow.writePendingBytes();
        assertEquals(List.of(), frames(), "the stream's window is shut");

        flow.incrementWindowSize(stream, 80_000);
        List<Frame> all = new ArrayList<>(cut);
        List<Frame> turn;
        do {
            flow.writePendingBytes();
            turn = frames();
            all.addAll(turn);
        } while (!turn.isEmpty());
        assertEquals(List.of(16_384, 3_616, 16_384, 16_384, 16_384, 16_384, 14_464), lengths(all));
        assertArrayEquals(chunk, payload(all));
        assertEquals(0x1, all.get(all.size() - 1).flags);
    }

    @Test
    void aTightConnectionWindowIsNeverExceeded() throws Http2Exception {
        widen(1 << 20, 0); // the connection's window stays HTTP/2's 65,535 bytes
        byte[] chunk = bytes(100_000, 4);
        Http2BodyFrames body = queue(stream, new Chunks(chunk).chunked, chunk.length);

        flow.writePendingBytes();
        List<Frame> first = frames();
        assertEquals(List.of(16_384, 16_384), lengths(first), "the share, 32 KiB");
        flow.writePendingBytes();
        List<Frame> second = frames();
        assertEquals(List.of(16_384, 16_383), lengths(second), "the rest of the connection's window");
        flow.writePendingBytes();
        assertEquals(List.of(), frames(), "the connection's window is shut");

        List<Frame> all = new ArrayList<>(first);
        all.addAll(second);
        assertArrayEquals(Arrays.copyOf(chunk, 65_535), payload(all));
        assertEquals(100_000 - 65_535, body.size());
        body.discard(new ClosedChannelException()); // releases the chunk it holds
    }

    @Test
    void streamsSharingTheConnectionWindowNeverExceedIt() throws Http2Exception {
        widen(1 << 20, 300_000);
        Http2Stream other = connection.remote().createStream(STREAM + 2, false);
        byte[] one = bytes(275_000, 5);
        byte[] two = bytes(275_000, 6);
        Http2BodyFrames first = queue(stream, new Chunks(one).chunked, one.length);
        Http2BodyFrames second = queue(other, new Chunks(two).chunked, two.length);

        ByteArrayOutputStream[] sent = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
        List<Frame> turn;
        do {
            flow.writePendingBytes();
            turn = frames();
            turn.forEach(frame -> sent[frame.stream == STREAM ? 0 : 1].writeBytes(frame.payload));
        } while (!turn.isEmpty());
        assertEquals(65_535 + 300_000, sent[0].size() + sent[1].size(), "the connection's window, all of it");
        assertArrayEquals(Arrays.copyOf(one, sent[0].size()), sent[0].toByteArray());
        assertArrayEquals(Arrays.copyOf(two, sent[1].size()), sent[1].toByteArray());
        first.discard(new ClosedChannelException());
        second.discard(new ClosedChannelException());
    }

    /** The stream's window to {@code streamWindow}, the connection's opened by {@code connectionIncrement}. */
    private void widen(int streamWindow, int connectionIncrement) throws Http2Exception {
        flow.initialWindowSize(streamWindow);
        if (connectionIncrement > 0) {
            flow.incrementWindowSize(connection.connectionStream(), connectionIncrement);
        }
    }

    private Http2BodyFrames queue(Http2Stream stream, ChunkedInput<ByteBuf> input, int length) {
        Http2BodyFrames body = new Http2BodyFrames(
                stream,
                new DefaultHttp2FrameWriter().configuration().frameSizePolicy(),
                new NoLifecycle(),
                input,
                length,
                channel.newPromise());
        flow.addFlowControlled(stream, body);
        return body;
    }

    /** The frames written since the last call, each buffer released once read. */
    private List<Frame> frames() {
        channel.flush();
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (ByteBuf written; (written = channel.readOutbound()) != null; ) {
            byte[] copy = new byte[written.readableBytes()];
            written.readBytes(copy);
            written.release();
            wire.writeBytes(copy);
        }
        byte[] bytes = wire.toByteArray();
        List<Frame> frames = new ArrayList<>();
        for (int at = 0; at < bytes.length; ) {
            int length = ((bytes[at] & 0xff) << 16) | ((bytes[at + 1] & 0xff) << 8) | (bytes[at + 2] & 0xff);
            assertEquals(0x0, bytes[at + 3], "a DATA frame");
            int streamId = Unpooled.wrappedBuffer(bytes, at + 5, 4).readInt();
            frames.add(new Frame(streamId, bytes[at + 4], Arrays.copyOfRange(bytes, at + 9, at + 9 + length)));
            at += 9 + length;
        }
        return frames;
    }

    private static List<Integer> lengths(List<Frame> frames) {
        return frames.stream().map(frame -> frame.payload.length).toList();
    }

    private static byte[] payload(List<Frame> frames) {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        frames.forEach(frame -> payload.writeBytes(frame.payload));
        return payload.toByteArray();
    }

    private static byte[] bytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private record Frame(int stream, int flags, byte[] payload) {}

    /**
     * The given chunks, in order, as Netty's {@link ChunkedStream} reads them (into buffers of the allocator it is
     * given: pooled ones, the leak detector's), and whether the body closed it.
     */
    private static final class Chunks {
        final int chunkSize;
        final ChunkedStream chunked;
        boolean closed;

        Chunks(byte[]... chunks) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            Arrays.stream(chunks).forEach(all::writeBytes);
            chunkSize = chunks[0].length;
            chunked = new ChunkedStream(
                    new ByteArrayInputStream(all.toByteArray()) {
                        @Override
                        public void close() {
                            closed = true;
                        }
                    },
                    chunkSize);
        }

        /** The chunks taken so far. */
        long taken() {
            return chunked.progress() / chunkSize;
        }
    }

    /** A lifecycle the body's streams never reach here: no error, reset or close is expected. */
    private static final class NoLifecycle implements Http2LifecycleManager {
        @Override
        public void closeStreamLocal(Http2Stream stream, ChannelFuture future) {}

        @Override
        public void closeStreamRemote(Http2Stream stream, ChannelFuture future) {}

        @Override
        public void closeStream(Http2Stream stream, ChannelFuture future) {}

        @Override
        public ChannelFuture resetStream(
                ChannelHandlerContext ctx, int streamId, long errorCode, ChannelPromise promise) {
            throw new AssertionError("stream " + streamId + " reset");
        }

        @Override
        public ChannelFuture goAway(
                ChannelHandlerContext ctx,
                int lastStreamId,
                long errorCode,
                ByteBuf debugData,
                ChannelPromise promise) {
            debugData.release();
            throw new AssertionError("GOAWAY");
        }

        @Override
        public void onError(ChannelHandlerContext ctx, boolean outbound, Throwable cause) {
            throw new AssertionError(cause);
        }
    }
}
