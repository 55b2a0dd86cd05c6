package io.hexstream.jmh.e2e;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.DefaultHttp2WindowUpdateFrame;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2DataFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2SettingsFrame;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code h2c} and {@code h2c-shared} connection kinds: HTTP/2 over cleartext TCP with prior knowledge (RFC 9113
 * 3.3), Netty's {@code Http2FrameCodec} and {@code Http2MultiplexHandler} on an event loop of the connection's own. A
 * client has one stream open at a time: the HTTP/1.1 request it is given ({@link LoopbackClient#request}) sent as a
 * HEADERS frame (its request line and header fields; {@code Host} as {@code :authority}) and a DATA frame (its body),
 * the reply's DATA frames counted and released as they arrive, nothing kept; the time to last byte ends with the DATA
 * frame that ends the stream. {@code h2c}: a connection per client; {@code h2c-shared}: every client's streams on one
 * connection. As a consensus client would (execution-apis #793): {@code SETTINGS_INITIAL_WINDOW_SIZE} of
 * {@value #INITIAL_WINDOW_SIZE} bytes, the connection's window opened to that times the streams the connection carries
 * at once (no stream is held back by the connection's window more than by its own), and {@code SETTINGS_MAX_FRAME_SIZE}
 * at HTTP/2's default, 16 KiB: the server cuts the body into frames of at most that.
 */
final class H2cLoopbackClient implements EngineConnection {
    /** {@code SETTINGS_INITIAL_WINDOW_SIZE} advertised, in bytes: #793's "SHOULD be at least 1 MiB". */
    static final int INITIAL_WINDOW_SIZE = 1 << 20;
    /** How long a reply may take before the exchange fails. */
    static final int REPLY_TIMEOUT_SECONDS = 120;

    private final Connection connection;
    private byte[] lastRequest;
    private Http2Headers headers;
    private byte[] body;
    private long dataFrames;

    private H2cLoopbackClient(Connection connection) {
        this.connection = connection;
    }

    /** One client on a connection of its own. */
    static H2cLoopbackClient connect(InetSocketAddress server) throws IOException {
        return new H2cLoopbackClient(new Connection(server, 1));
    }

    /**
     * {@code clients} clients of {@code server}: on one connection if {@code shared}, else each on its own. Each is
     * closed on its own; a shared connection closes with its last client.
     */
    static List<EngineConnection> open(InetSocketAddress server, int clients, boolean shared) throws IOException {
        List<EngineConnection> opened = new ArrayList<>(clients);
        try {
            Connection one = shared ? new Connection(server, clients) : null;
            for (int c = 0; c < clients; c++) {
                opened.add(new H2cLoopbackClient(shared ? one : new Connection(server, 1)));
            }
            return opened;
        } catch (IOException | RuntimeException e) {
            for (EngineConnection client : opened) {
                client.close();
            }
            throw e;
        }
    }

    @Override
    public long exchange(byte[] request) throws IOException {
        return exchange(request, null);
    }

    @Override
    public byte[] fetch(byte[] request) throws IOException {
        ByteArrayOutputStream keep = new ByteArrayOutputStream(1 << 20);
        exchange(request, keep);
        return keep.toByteArray();
    }

    @Override
    public long dataFrames() {
        return dataFrames;
    }

    private long exchange(byte[] request, ByteArrayOutputStream keep) throws IOException {
        if (request != lastRequest) { // the benchmark sends one request over and over: translated once
            translate(request);
            lastRequest = request;
        }
        Reply reply = new Reply(keep);
        Http2StreamChannel stream;
        try {
            stream = new Http2StreamChannelBootstrap(connection.channel)
                    .handler(reply)
                    .open()
                    .get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IOException("no stream opened", e);
        }
        stream.write(new DefaultHttp2HeadersFrame(headers, false));
        stream.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.wrappedBuffer(body), true));
        try {
            reply.done.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException | TimeoutException e) {
            stream.close();
            throw new IOException("no whole reply", e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        }
        dataFrames += reply.frames;
        return reply.bytes;
    }

    /** The HTTP/1.1 {@code request}'s head as HTTP/2 headers, and its body. */
    private void translate(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, end).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Http2Headers h2 = new DefaultHttp2Headers()
                .method(requestLine[0])
                .path(requestLine[1])
                .scheme("http");
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            if (name.equals("host")) {
                h2.authority(value);
            } else if (!name.equals("connection")) { // connection-specific: not in HTTP/2 (RFC 9113 8.2.2)
                h2.add(name, value);
            }
        }
        headers = h2;
        body = Arrays.copyOfRange(request, end + 4, request.length);
    }

    @Override
    public void close() {
        connection.release();
    }

    /** One stream's reply: its status checked, its DATA frames counted and released (or copied, then released). */
    private static final class Reply extends ChannelInboundHandlerAdapter {
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private final ByteArrayOutputStream keep;
        long bytes;
        long frames;

        Reply(ByteArrayOutputStream keep) {
            this.keep = keep;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof Http2HeadersFrame head) {
                    CharSequence status = head.headers().status();
                    if (status != null && !"200".contentEquals(status)) {
                        done.completeExceptionally(new IOException("unexpected response: " + status));
                    } else if (head.isEndStream()) {
                        done.complete(null);
                    }
                } else if (msg instanceof Http2DataFrame data) {
                    ByteBuf content = data.content();
                    bytes += content.readableBytes();
                    frames++;
                    if (keep != null) {
                        content.getBytes(content.readerIndex(), keep, content.readableBytes());
                    }
                    if (data.isEndStream()) {
                        done.complete(null);
                    }
                }
            } catch (IOException e) {
                done.completeExceptionally(e);
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.completeExceptionally(new IOException("the stream closed before its reply ended"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
            ctx.close();
        }
    }

    /**
     * One HTTP/2 connection and its event loop, ready once the server's SETTINGS are in; closed when the last of the
     * clients on it is.
     */
    private static final class Connection {
        private final EventLoopGroup group;
        private final Channel channel;
        private final AtomicInteger clients;

        Connection(InetSocketAddress server, int clients) throws IOException {
            this.clients = new AtomicInteger(clients);
            this.group = new MultiThreadIoEventLoopGroup(
                    1, new DefaultThreadFactory("h2c-client", true), NioIoHandler.newFactory());
            Settings settings = new Settings();
            ChannelFuture connected = bootstrap(group, settings).connect(server).awaitUninterruptibly();
            channel = connected.channel();
            try {
                if (!connected.isSuccess()) {
                    throw new IOException("no connection to " + server, connected.cause());
                }
                settings.received.get(REPLY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                // The connection's window starts at 65,535 bytes whatever the settings (RFC 9113 6.9.2).
                channel.writeAndFlush(new DefaultHttp2WindowUpdateFrame(
                                INITIAL_WINDOW_SIZE * clients - Http2CodecUtil.DEFAULT_WINDOW_SIZE))
                        .sync();
            } catch (IOException | InterruptedException | ExecutionException | TimeoutException e) {
                channel.close();
                group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
                throw e instanceof IOException io ? io : new IOException("no HTTP/2 connection to " + server, e);
            }
        }

        private static Bootstrap bootstrap(EventLoopGroup group, Settings settings) {
            return new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(
                                            Http2FrameCodecBuilder.forClient()
                                                    .initialSettings(Http2Settings.defaultSettings()
                                                            .initialWindowSize(INITIAL_WINDOW_SIZE)
                                                            .pushEnabled(false))
                                                    .build(),
                                            new Http2MultiplexHandler(new NoPush()),
                                            settings);
                        }
                    });
        }

        void release() {
            if (clients.decrementAndGet() == 0) {
                channel.close().syncUninterruptibly();
                group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            }
        }
    }

    /** Completes when the server's first SETTINGS frame is in; releases whatever else reaches the connection. */
    private static final class Settings extends ChannelInboundHandlerAdapter {
        final CompletableFuture<Void> received = new CompletableFuture<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2SettingsFrame) {
                received.complete(null);
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            received.completeExceptionally(new IOException("closed before the server's SETTINGS"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            received.completeExceptionally(cause);
            ctx.close();
        }
    }

    /** Streams the server opens (none: push is off): closed. */
    @ChannelHandler.Sharable
    private static final class NoPush extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.close();
        }
    }
}
