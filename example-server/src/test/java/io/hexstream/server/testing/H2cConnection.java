package io.hexstream.server.testing;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2GoAwayFrame;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ResetFrame;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An h2c client (RFC 9113, prior knowledge) of a server in this JVM, for tests that need HTTP/2 at the frame level:
 * Netty's own client ({@code Http2FrameCodec}, {@code Http2MultiplexHandler}, an {@link Http2StreamChannel} per
 * request) over TCP or a Unix domain socket. It advertises the initial stream window it is given and opens the
 * connection's window to the size it is given (RFC 9113 6.9.2: both start at 65,535 bytes), and sends WINDOW_UPDATEs as
 * it consumes a stream's DATA (Netty's stream channels do, as they read). Each request is an {@link Exchange}: the
 * response's headers, its DATA bytes counted and hashed (kept whole up to {@link #KEPT} bytes), the reset the server
 * sent if any; a stream can stop reading (no WINDOW_UPDATE goes out for it) and the connection can stop reading its
 * socket. Every buffer of the client is on the heap, from an allocator of its own, so that {@link ServerMemory} counts
 * nothing of it; every frame read is released.
 */
public final class H2cConnection implements AutoCloseable {
    /** HTTP/2's initial window of a stream and of the connection, in bytes (RFC 9113 6.9.2). */
    public static final int DEFAULT_WINDOW = 65_535;
    /** Bytes of a response body kept as they are ({@link Response#body()}); the rest is counted and hashed only. */
    public static final int KEPT = 1 << 20;

    private static final long TIMEOUT_SECONDS = 60;
    private static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(
            2, new DefaultThreadFactory("h2c-test-client", true), NioIoHandler.newFactory());
    /** Heap buffers only, whatever is asked: the server's direct memory figures count nothing of the clients'. */
    static final ByteBufAllocator HEAP = new HeapAllocator();

    private final Channel channel;
    private final CompletableFuture<GoAway> goAway;

    /** A GOAWAY frame as received. */
    public record GoAway(int lastStreamId, long errorCode) {}

    /** A response: its headers, its body's length and SHA-256, and the body itself up to {@link #KEPT} bytes. */
    public record Response(Http2Headers headers, long length, byte[] sha256, byte[] body) {
        public int status() {
            return headers.getInt(Http2Headers.PseudoHeaderName.STATUS.value());
        }

        /** The header's value, or {@code null}. */
        public String header(String name) {
            CharSequence value = headers.get(name);
            return value == null ? null : value.toString();
        }

        /** The body as text, {@code null} if it was longer than {@link #KEPT}. */
        public String text() {
            return body == null ? null : new String(body, StandardCharsets.UTF_8);
        }
    }

    private H2cConnection(Channel channel, CompletableFuture<GoAway> goAway) {
        this.channel = channel;
        this.goAway = goAway;
    }

    /** Connects to {@code 127.0.0.1:port} with a 1 MiB stream window and a 2 MiB connection window. */
    public static H2cConnection open(int port) throws InterruptedException {
        return open(new InetSocketAddress("127.0.0.1", port), 1 << 20, 2 << 20);
    }

    /** Connects to the Unix domain socket {@code path} with a 1 MiB stream window and a 2 MiB connection window. */
    public static H2cConnection open(Path path) throws InterruptedException {
        return open(UnixDomainSocketAddress.of(path), 1 << 20, 2 << 20);
    }

    /**
     * Connects to {@code address} (TCP, or a {@link UnixDomainSocketAddress}) advertising {@code initialWindow} as its
     * {@code SETTINGS_INITIAL_WINDOW_SIZE} and opening the connection's window to {@code connectionWindow} (at least
     * {@link #DEFAULT_WINDOW}); returns once the preface and settings are written.
     */
    public static H2cConnection open(SocketAddress address, int initialWindow, int connectionWindow)
            throws InterruptedException {
        CompletableFuture<GoAway> goAway = new CompletableFuture<>();
        boolean unix = address instanceof UnixDomainSocketAddress;
        Bootstrap bootstrap = new Bootstrap()
                .group(GROUP)
                .channelFactory(() -> unix ? new NioDomainSocketChannel() : new NioSocketChannel())
                .option(ChannelOption.ALLOCATOR, HEAP)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline()
                                .addLast(
                                        Http2FrameCodecBuilder.forClient()
                                                .initialSettings(Http2Settings.defaultSettings()
                                                        .initialWindowSize(initialWindow))
                                                .build(),
                                        new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
                                        new ConnectionFrames(goAway));
                    }
                });
        Channel channel = bootstrap.connect(address).sync().channel();
        if (connectionWindow > DEFAULT_WINDOW) {
            channel.writeAndFlush(new DefaultHttp2WindowUpdateFrame(connectionWindow - DEFAULT_WINDOW))
                    .sync();
        }
        return new H2cConnection(channel, goAway);
    }

    /** The headers of a request with a body of {@code length} bytes: POST, {@code :authority} 127.0.0.1. */
    public static Http2Headers post(String path, String token, String type, long length) {
        Http2Headers headers = new DefaultHttp2Headers()
                .method("POST")
                .scheme("http")
                .authority("127.0.0.1")
                .path(path)
                .set("content-type", type)
                .setLong("content-length", length);
        if (token != null) {
            headers.set("authorization", "Bearer " + token);
        }
        return headers;
    }

    /** A POST of {@code body} on a new stream, read as it arrives. */
    public Exchange post(String path, String token, String type, byte[] body) throws InterruptedException {
        return send(post(path, token, type, body.length), body, true, true);
    }

    /** A JSON-RPC POST to {@code /} on a new stream, read as it arrives. */
    public Exchange postJson(String token, String json) throws InterruptedException {
        return post("/", token, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@code headers} on a new stream, then {@code body} unless {@code null}, the stream ended with the last of them if
     * {@code endStream}; the response read as it arrives if {@code reading}, else nothing is read from the stream (and
     * no WINDOW_UPDATE sent for it) until {@link Exchange#resumeReading()}.
     */
    public Exchange send(Http2Headers headers, byte[] body, boolean endStream, boolean reading)
            throws InterruptedException {
        Exchange exchange = new Exchange();
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(channel)
                .handler(exchange.new Reader())
                .open()
                .sync()
                .getNow();
        exchange.stream = stream;
        stream.eventLoop()
                .submit(() -> {
                    stream.config().setAutoRead(reading);
                    stream.write(new DefaultHttp2HeadersFrame(headers, endStream && body == null));
                    if (body != null) {
                        stream.write(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), endStream));
                    }
                    stream.flush();
                })
                .sync();
        return exchange;
    }

    /** The GOAWAY the server sent, once it has. */
    public CompletableFuture<GoAway> goAway() {
        return goAway;
    }

    /** Completes when the connection is closed, by either side. */
    public ChannelFuture closed() {
        return channel.closeFuture();
    }

    /** Stops reading the socket: the server's writes fill it, then wait. */
    public void stopReading() throws InterruptedException {
        channel.eventLoop().submit(() -> channel.config().setAutoRead(false)).sync();
    }

    /** Reads the socket again. */
    public void resumeReading() {
        channel.config().setAutoRead(true);
    }

    @Override
    public void close() throws InterruptedException {
        channel.close().sync();
    }

    /** What the client is told of the connection as a whole; every frame read is released. */
    private static final class ConnectionFrames extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<GoAway> goAway;

        ConnectionFrames(CompletableFuture<GoAway> goAway) {
            this.goAway = goAway;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2GoAwayFrame frame) {
                goAway.complete(new GoAway(frame.lastStreamId(), frame.errorCode()));
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** One request's stream: its response as it arrives, and what the test does to it. */
    public static final class Exchange {
        private final CompletableFuture<Response> response = new CompletableFuture<>();
        private final CompletableFuture<Long> reset = new CompletableFuture<>();
        private final CompletableFuture<Void> firstData = new CompletableFuture<>();
        private final MessageDigest sha256 = HttpConnection.sha256();
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
        private volatile Http2StreamChannel stream;
        private volatile long received;
        private volatile long resetAfter = -1;
        private volatile long pauseAfter = -1;
        private Http2Headers headers;
        private volatile long frames;

        /** The whole response; fails if the stream was reset or closed before its end. */
        public Response response() throws InterruptedException, ExecutionException, TimeoutException {
            return response.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        /** Completes with the error code of the RST_STREAM the server sent on this stream. */
        public CompletableFuture<Long> reset() {
            return reset;
        }

        /** Completes once a DATA frame with at least one byte has been read. */
        public CompletableFuture<Void> firstData() {
            return firstData;
        }

        /** DATA bytes read so far. */
        public long received() {
            return received;
        }

        /** DATA frames read so far. */
        public long dataFrames() {
            return frames;
        }

        /** The stream's id, once its HEADERS are written. */
        public int id() {
            return stream.stream().id();
        }

        /** Resets the stream (RST_STREAM CANCEL) once {@code bytes} of DATA have been read, on the client's thread. */
        public void resetAfter(long bytes) {
            resetAfter = bytes;
        }

        /** Stops reading the stream once {@code bytes} of DATA have been read, on the client's thread. */
        public void stopReadingAfter(long bytes) {
            pauseAfter = bytes;
        }

        /** Resets the stream now (RST_STREAM CANCEL). */
        public void cancel() throws InterruptedException {
            stream.close().sync();
        }

        /** Stops reading the stream: its DATA waits in the client, unconsumed, and no WINDOW_UPDATE goes out. */
        public void stopReading() throws InterruptedException {
            stream.eventLoop().submit(() -> stream.config().setAutoRead(false)).sync();
        }

        /** Reads the stream again, and sends the WINDOW_UPDATEs for what it consumes. */
        public void resumeReading() {
            stream.config().setAutoRead(true);
        }

        private void finish() {
            response.complete(
                    new Response(headers, received, sha256.digest(), received <= KEPT ? kept.toByteArray() : null));
        }

        /** The stream channel's handler, on the client's thread. */
        final class Reader extends ChannelInboundHandlerAdapter {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    if (msg instanceof Http2HeadersFrame frame) {
                        CharSequence status = frame.headers().status();
                        if (headers == null && status != null && status.charAt(0) != '1') {
                            headers = frame.headers();
                        }
                        if (frame.isEndStream()) {
                            finish();
                        }
                    } else if (msg instanceof Http2DataFrame frame) {
                        data(ctx, frame);
                    }
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }

            private void data(ChannelHandlerContext ctx, Http2DataFrame frame) {
                ByteBuf content = frame.content();
                int length = content.readableBytes();
                for (ByteBuffer piece : content.nioBuffers()) {
                    sha256.update(piece);
                }
                if (received + length <= KEPT) {
                    kept.writeBytes(ByteBufUtil.getBytes(content));
                }
                received += length;
                frames++;
                if (length > 0) {
                    firstData.complete(null);
                }
                if (resetAfter >= 0 && received >= resetAfter) {
                    ctx.close(); // RST_STREAM CANCEL
                } else if (frame.isEndStream()) {
                    finish();
                } else if (pauseAfter >= 0 && received >= pauseAfter) {
                    pauseAfter = -1;
                    ctx.channel().config().setAutoRead(false);
                }
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                if (event instanceof Http2ResetFrame frame) {
                    reset.complete(frame.errorCode());
                }
                ReferenceCountUtil.release(event);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                response.completeExceptionally(new IOException("stream " + ctx.channel() + " closed before its end"
                        + (reset.isDone() ? ", reset with " + reset.getNow(-1L) : "")));
                ctx.fireChannelInactive();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                response.completeExceptionally(cause);
                ctx.close();
            }
        }
    }

    /** Unpooled heap buffers, for direct ones too. */
    private static final class HeapAllocator extends AbstractByteBufAllocator {
        HeapAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }
}
