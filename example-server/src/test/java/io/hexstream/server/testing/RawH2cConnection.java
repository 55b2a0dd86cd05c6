package io.hexstream.server.testing;

import io.hexstream.codec.testing.Poll;
import io.hexstream.server.testing.H2cConnection.GoAway;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.DefaultHttp2FrameReader;
import io.netty.handler.codec.http2.DefaultHttp2FrameWriter;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Flags;
import io.netty.handler.codec.http2.Http2FrameAdapter;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * An HTTP/2 connection at the level of its frames (RFC 9113), for what Netty's client would refuse to send: floods and
 * frames past the server's limits. It writes the connection preface and an empty SETTINGS, acknowledges the server's
 * SETTINGS, and otherwise writes exactly the frames it is told ({@link DefaultHttp2FrameWriter}, one HPACK encoder for
 * the connection; a header block split over CONTINUATION frames by hand), in order, on its I/O thread. What the server
 * sends is read with {@link DefaultHttp2FrameReader}: the status of each stream's response, the RST_STREAM and GOAWAY
 * frames, the PING acknowledgements. Heap buffers only, as {@link H2cConnection}'s.
 */
public final class RawH2cConnection implements AutoCloseable {
    private static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory("h2c-raw-test-client", true), NioIoHandler.newFactory());
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** How long a socket that stays full counts as stalled by a server that no longer reads it. */
    private static final Duration STALLED = Duration.ofSeconds(1);
    /** Frames written per task on the I/O thread while flooding. */
    private static final int BATCH = 256;

    private final Channel channel;
    private final Frames frames;

    private RawH2cConnection(Channel channel, Frames frames) {
        this.channel = channel;
        this.frames = frames;
    }

    /**
     * Connects to {@code 127.0.0.1:port}; {@code receiveBuffer} is the socket's {@code SO_RCVBUF} (0: the system's).
     */
    public static RawH2cConnection open(int port, int receiveBuffer) throws InterruptedException {
        Frames frames = new Frames();
        Bootstrap bootstrap = new Bootstrap()
                .group(GROUP)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, H2cConnection.HEAP)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(frames);
                    }
                });
        if (receiveBuffer > 0) {
            bootstrap.option(ChannelOption.SO_RCVBUF, receiveBuffer);
        }
        Channel channel = bootstrap
                .connect(new InetSocketAddress("127.0.0.1", port))
                .sync()
                .channel();
        RawH2cConnection connection = new RawH2cConnection(channel, frames);
        connection.write(ctx -> {
            ctx.write(Http2CodecUtil.connectionPrefaceBuf());
            frames.writer.writeSettings(ctx, new Http2Settings(), ctx.newPromise());
        });
        connection.flush();
        return connection;
    }

    /** HEADERS of a whole header block (END_HEADERS), ending the stream if {@code endStream}. */
    public void headers(int streamId, Http2Headers headers, boolean endStream) {
        write(ctx -> frames.writer.writeHeaders(ctx, streamId, headers, 0, endStream, ctx.newPromise()));
    }

    /** {@code body} in one DATA frame, ending the stream if {@code endStream}. */
    public void data(int streamId, byte[] body, boolean endStream) {
        write(ctx ->
                frames.writer.writeData(ctx, streamId, Unpooled.wrappedBuffer(body), 0, endStream, ctx.newPromise()));
    }

    /** HEADERS carrying {@code headers}' block without END_HEADERS: CONTINUATION frames must follow. */
    public void headersWithoutEnd(int streamId, Http2Headers headers) {
        write(ctx -> {
            ByteBuf block = ctx.alloc().buffer();
            try {
                frames.encoder.encodeHeaders(streamId, headers, block);
            } catch (Http2Exception e) {
                block.release();
                throw new IllegalStateException(e);
            }
            ByteBuf frame = ctx.alloc().buffer(Http2CodecUtil.FRAME_HEADER_LENGTH);
            Http2CodecUtil.writeFrameHeader(
                    frame, block.readableBytes(), Http2FrameTypes.HEADERS, new Http2Flags(), streamId);
            ctx.write(frame);
            ctx.write(block);
        });
    }

    /** A CONTINUATION frame of {@code size} bytes of header block (literal octets), without END_HEADERS. */
    public void continuation(int streamId, int size) {
        write(ctx -> {
            ByteBuf frame = ctx.alloc().buffer(Http2CodecUtil.FRAME_HEADER_LENGTH + size);
            Http2CodecUtil.writeFrameHeader(frame, size, Http2FrameTypes.CONTINUATION, new Http2Flags(), streamId);
            frame.writeZero(size);
            ctx.write(frame);
        });
    }

    /** RST_STREAM with {@code error}. */
    public void reset(int streamId, Http2Error error) {
        write(ctx -> frames.writer.writeRstStream(ctx, streamId, error.code(), ctx.newPromise()));
    }

    /** A PING (not an acknowledgement) carrying {@code data}. */
    public void ping(long data) {
        write(ctx -> frames.writer.writePing(ctx, false, data, ctx.newPromise()));
    }

    /** Flushes what was written, and returns once it is handed to the socket or the connection is closed. */
    public void flush() throws InterruptedException {
        channel.eventLoop().submit(() -> frames.ctx.flush()).sync();
    }

    /**
     * Writes what {@code frame} writes (without flushing) over and over, flushing every {@value #BATCH}, while the
     * connection is open, at most {@code max} times. While the socket is full it waits for it to drain; if
     * {@code untilStalled}, a socket that stays full for {@link #STALLED} ends the flood. Returns how many it wrote.
     */
    public long flood(Consumer<RawH2cConnection> frame, long max, boolean untilStalled) throws InterruptedException {
        AtomicLong written = new AtomicLong();
        while (written.get() < max && channel.isActive()) {
            channel.eventLoop()
                    .submit(() -> {
                        for (int i = 0; i < BATCH && written.get() < max && channel.isWritable(); i++) {
                            frame.accept(this);
                            written.incrementAndGet();
                        }
                        frames.ctx.flush();
                    })
                    .sync();
            if (!Poll.within(() -> channel.isWritable() || !channel.isActive(), untilStalled ? STALLED : TIMEOUT)) {
                break;
            }
        }
        return written.get();
    }

    /** Whether the socket takes more: false once the server has stopped reading and both buffers are full. */
    public boolean isWritable() {
        return channel.isWritable();
    }

    /** Stops reading the socket. */
    public void stopReading() throws InterruptedException {
        channel.eventLoop().submit(() -> channel.config().setAutoRead(false)).sync();
    }

    /** DATA bytes read so far, on every stream (no WINDOW_UPDATE is ever sent for them). */
    public long dataBytes() {
        return frames.dataBytes.get();
    }

    /** Completes with the PING acknowledgement of {@code data} once it is read. */
    public CompletableFuture<Void> pingAck(long data) {
        return frames.pingAcks.computeIfAbsent(data, d -> new CompletableFuture<>());
    }

    /** Completes with the error code of the RST_STREAM the server sends on {@code streamId}. */
    public CompletableFuture<Long> reset(int streamId) {
        return frames.resets.computeIfAbsent(streamId, id -> new CompletableFuture<>());
    }

    /** Completes with the {@code :status} of the response on {@code streamId}. */
    public CompletableFuture<String> status(int streamId) {
        return frames.statuses.computeIfAbsent(streamId, id -> new CompletableFuture<>());
    }

    /** Completes with the server's GOAWAY. */
    public CompletableFuture<GoAway> goAway() {
        return frames.goAway;
    }

    /** Completes when the connection is closed, by either side. */
    public ChannelFuture closed() {
        return channel.closeFuture();
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
    }

    private void write(Consumer<ChannelHandlerContext> frame) {
        if (channel.eventLoop().inEventLoop()) {
            frame.accept(frames.ctx);
        } else {
            channel.eventLoop().execute(() -> frame.accept(frames.ctx));
        }
    }

    /** Reads the server's frames and keeps what tests ask about; writes the SETTINGS acknowledgements. */
    private static final class Frames extends ByteToMessageDecoder {
        final DefaultHttp2FrameWriter writer = new DefaultHttp2FrameWriter();
        final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
        final DefaultHttp2FrameReader reader = new DefaultHttp2FrameReader();
        final Map<Long, CompletableFuture<Void>> pingAcks = new ConcurrentHashMap<>();
        final Map<Integer, CompletableFuture<Long>> resets = new ConcurrentHashMap<>();
        final Map<Integer, CompletableFuture<String>> statuses = new ConcurrentHashMap<>();
        final CompletableFuture<GoAway> goAway = new CompletableFuture<>();
        final AtomicLong dataBytes = new AtomicLong();
        volatile ChannelHandlerContext ctx;

        private final Http2FrameAdapter listener = new Http2FrameAdapter() {
            @Override
            public int onDataRead(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean end) {
                dataBytes.addAndGet(data.readableBytes());
                return data.readableBytes() + padding;
            }

            @Override
            public void onHeadersRead(
                    ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endStream) {
                if (headers.status() != null) {
                    status(streamId).complete(headers.status().toString());
                }
            }

            @Override
            public void onHeadersRead(
                    ChannelHandlerContext ctx,
                    int streamId,
                    Http2Headers headers,
                    int streamDependency,
                    short weight,
                    boolean exclusive,
                    int padding,
                    boolean endStream) {
                onHeadersRead(ctx, streamId, headers, padding, endStream);
            }

            @Override
            public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
                resets.computeIfAbsent(streamId, id -> new CompletableFuture<>())
                        .complete(errorCode);
            }

            @Override
            public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
                writer.writeSettingsAck(ctx, ctx.newPromise());
                ctx.flush();
            }

            @Override
            public void onPingAckRead(ChannelHandlerContext ctx, long data) {
                pingAcks.computeIfAbsent(data, d -> new CompletableFuture<>()).complete(null);
            }

            @Override
            public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
                goAway.complete(new GoAway(lastStreamId, errorCode));
            }
        };

        private CompletableFuture<String> status(int streamId) {
            return statuses.computeIfAbsent(streamId, id -> new CompletableFuture<>());
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Http2Exception {
            reader.readFrame(ctx, in, listener);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
