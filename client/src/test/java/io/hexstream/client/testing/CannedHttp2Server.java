package io.hexstream.client.testing;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2GoAwayFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2ResetFrame;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An h2c server (prior knowledge) on a loopback port, made of Netty's {@link Http2FrameCodec} and
 * {@link Http2MultiplexHandler}: each request stream is read whole (its headers and body, kept, {@link #requests()})
 * and answered with the {@link Reply} the test's function gives: its status, {@code content-type},
 * {@code content-length} and body in DATA frames of at most {@code frameSize} bytes, sent as the client's windows
 * allow; or cut by an {@code RST_STREAM} ({@code CANCEL}) after some of it. Requests are answered in batches of
 * {@code batch}, once that many have arrived, so that a test sees streams open at once. Keeps the client's first
 * {@code SETTINGS} ({@link #clientSettings()}) and the window the client opened on the connection before its first
 * request ({@link #connectionWindow()}). On a loopback port or a Unix domain socket; one event loop serves every
 * connection.
 */
public final class CannedHttp2Server implements AutoCloseable {

    /**
     * A response.
     *
     * @param status its status
     * @param contentType its {@code content-type}
     * @param body its body, whole (its {@code content-length})
     * @param resetAfter body bytes sent before an {@code RST_STREAM} ends the stream; -1: none, the body ends it
     * @param goAwayFirst whether a {@code GOAWAY} ({@code NO_ERROR}, naming this stream the last) goes before it
     */
    public record Reply(int status, String contentType, byte[] body, int resetAfter, boolean goAwayFirst) {
        public static Reply of(int status, String contentType, byte[] body) {
            return new Reply(status, contentType, body, -1, false);
        }
    }

    /**
     * A request as read.
     *
     * @param headers its header fields, pseudo-headers included ({@code :path}), names as received
     * @param body its body
     */
    public record Request(Map<String, String> headers, byte[] body) {}

    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final Function<Request, Reply> replies;
    private final int frameSize;
    private final int batch;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    /** Streams read whole and not yet answered; on the one event loop only. */
    private final List<Runnable> pending = new ArrayList<>();

    private volatile Http2Settings clientSettings;
    private volatile int connectionWindow = -1;

    /**
     * A server on a loopback port answering with {@code replies}, in DATA frames of at most {@code frameSize} bytes, in
     * batches of {@code batch} requests, with {@code settings} (e.g. its {@code INITIAL_WINDOW_SIZE}) as its own.
     */
    public CannedHttp2Server(Function<Request, Reply> replies, int frameSize, int batch, Http2Settings settings)
            throws InterruptedException {
        this(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), replies, frameSize, batch, settings);
    }

    /** As above, on the Unix domain socket {@code path} (a file that does not exist yet) with HTTP/2's defaults. */
    public CannedHttp2Server(Path path, Function<Request, Reply> replies, int frameSize) throws InterruptedException {
        this(UnixDomainSocketAddress.of(path), replies, frameSize, 1, Http2Settings.defaultSettings());
    }

    private CannedHttp2Server(
            SocketAddress address, Function<Request, Reply> replies, int frameSize, int batch, Http2Settings settings)
            throws InterruptedException {
        this.replies = replies;
        this.frameSize = frameSize;
        this.batch = batch;
        this.server = new ServerBootstrap()
                .group(group)
                .channel(
                        address instanceof UnixDomainSocketAddress
                                ? NioServerDomainSocketChannel.class
                                : NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        ch.pipeline()
                                .addLast(
                                        Http2FrameCodecBuilder.forServer()
                                                .initialSettings(settings)
                                                .build(),
                                        new Http2MultiplexHandler(new ChannelInitializer<Channel>() {
                                            @Override
                                            protected void initChannel(Channel stream) {
                                                stream.pipeline().addLast(new StreamReader());
                                            }
                                        }),
                                        new ConnectionFrames());
                    }
                })
                .bind(address)
                .sync()
                .channel();
    }

    /** A server of HTTP/2's default settings, answering each request as it arrives. */
    public CannedHttp2Server(Function<Request, Reply> replies, int frameSize) throws InterruptedException {
        this(replies, frameSize, 1, Http2Settings.defaultSettings());
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    /** The requests read whole so far, in the order they ended. */
    public List<Request> requests() {
        return requests;
    }

    /** The connections accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** The client's first {@code SETTINGS}, or null. */
    public Http2Settings clientSettings() {
        return clientSettings;
    }

    /** The connection's send window (what the client let it send, RFC 9113 section 6.9) at the first request. */
    public int connectionWindow() {
        return connectionWindow;
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** The frames of the connection itself, after the multiplexer: the client's first SETTINGS kept. */
    private final class ConnectionFrames extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2SettingsFrame frame && clientSettings == null) {
                clientSettings = frame.settings();
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /** Reads one request stream whole, then queues its answer. */
    private final class StreamReader extends ChannelInboundHandlerAdapter {
        private final Map<String, String> headers = new LinkedHashMap<>();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame frame) {
                    frame.headers()
                            .forEach(h -> headers.put(
                                    h.getKey().toString(), h.getValue().toString()));
                    if (frame.isEndStream()) {
                        ended(ctx);
                    }
                } else if (msg instanceof Http2DataFrame frame) {
                    body.writeBytes(ByteBufUtil.getBytes(frame.content()));
                    if (frame.isEndStream()) {
                        ended(ctx);
                    }
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void ended(ChannelHandlerContext ctx) {
            if (connectionWindow < 0) {
                Http2Connection connection = ctx.channel()
                        .parent()
                        .pipeline()
                        .get(Http2FrameCodec.class)
                        .connection();
                connectionWindow = connection.remote().flowController().windowSize(connection.connectionStream());
            }
            Request request = new Request(Map.copyOf(headers), body.toByteArray());
            requests.add(request);
            pending.add(() -> answer(ctx, replies.apply(request)));
            if (pending.size() >= batch) {
                List<Runnable> now = List.copyOf(pending);
                pending.clear();
                now.forEach(Runnable::run);
            }
        }

        private void answer(ChannelHandlerContext ctx, Reply reply) {
            if (reply.goAwayFirst()) {
                ctx.channel().parent().writeAndFlush(new DefaultHttp2GoAwayFrame(Http2Error.NO_ERROR));
            }
            byte[] body = reply.body();
            Http2Headers head = new DefaultHttp2Headers()
                    .status(Integer.toString(reply.status()))
                    .set("content-type", reply.contentType())
                    .setInt("content-length", body.length);
            ChannelFuture last = ctx.write(new DefaultHttp2HeadersFrame(head, body.length == 0));
            int end = reply.resetAfter() >= 0 ? reply.resetAfter() : body.length;
            for (int at = 0; at < end; at += frameSize) {
                int n = Math.min(frameSize, end - at);
                last = ctx.write(new DefaultHttp2DataFrame(
                        Unpooled.wrappedBuffer(body, at, n), reply.resetAfter() < 0 && at + n == body.length));
            }
            ctx.flush();
            if (reply.resetAfter() >= 0) {
                // Once the data is on the wire: a reset written first would discard what flow control holds back.
                last.addListener(written -> ctx.writeAndFlush(new DefaultHttp2ResetFrame(Http2Error.CANCEL)));
            }
        }
    }
}
