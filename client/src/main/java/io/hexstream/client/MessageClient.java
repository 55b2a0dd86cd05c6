package io.hexstream.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * A getBlobs client over JSON-RPC messages (execution-apis {@code authentication.md}): WebSocket ({@code ws://}, the
 * JWT on the upgrade request only) or IPC (a Unix domain socket through the JDK's own support, Netty's
 * {@link NioDomainSocketChannel}, no JWT: the file's permissions are the gate; newline-delimited). One connection, made
 * on the first call and again if the server has closed it; calls pipelined in the order made; each reply read as it
 * arrives by a {@link MessageReplyReader}, piece by piece as the socket delivers it, its entries handed to the call's
 * {@link BlobsListener} as they are decoded.
 *
 * <p>Bounded whatever the server sends: a reply, however framed (one WebSocket frame, many, or an IPC line), is read up
 * to the most its call allows ({@link JsonReplySize}) and refused past it, and held nowhere whole
 * ({@link WebSocketFrameReader}); a result is refused at its first entry past the hashes asked; Pings are answered only
 * while the connection is writable, reading paused otherwise ({@link WebSocketControlHandler}).
 */
public final class MessageClient implements BlobsClient {
    /** The largest HTTP answer to the WebSocket upgrade taken (its body, if any). */
    private static final int MAX_UPGRADE_ANSWER = 8192;

    private static final int CONNECT_TIMEOUT_MS = 10_000;

    private final String where;
    private final SocketAddress address;
    private final boolean paced;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private volatile Channel channel;
    private volatile CompletableFuture<Void> ready;
    private long nextId = 1;

    private MessageClient(
            String where,
            SocketAddress address,
            boolean webSocket,
            boolean paced,
            Class<? extends Channel> channelType,
            Supplier<ChannelHandler[]> handlers) {
        this.where = where;
        this.address = address;
        this.paced = paced;
        this.group = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("hexstream-client", true), NioIoHandler.newFactory());
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(channelType)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ready = new CompletableFuture<>();
                        ch.pipeline().addLast(handlers.get());
                        ch.pipeline().addLast(new MessageReplyReader(webSocket, paced, ready));
                    }
                });
    }

    /**
     * The {@code ws://HOST:PORT[/PATH]} URL {@code url}.
     *
     * @throws IllegalArgumentException in one line, if it is not a {@code ws} URL with a host
     */
    public static URI webSocketUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not a URL: " + e.getReason());
        }
        if (!"ws".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("'" + url + "' is not a ws:// URL with a host");
        }
        return uri;
    }

    /**
     * A WebSocket client of {@code url} ({@link #webSocketUrl(String)}), the upgrade signed with the next of
     * {@code tokens}.
     */
    public static MessageClient webSocket(URI url, Supplier<String> tokens, boolean paced) {
        String host = url.getHost().startsWith("[")
                ? url.getHost().substring(1, url.getHost().length() - 1)
                : url.getHost();
        int port = url.getPort() < 0 ? 80 : url.getPort();
        URI target = url.getRawPath() == null || url.getRawPath().isEmpty() ? url.resolve("/") : url;
        return new MessageClient(
                host + ":" + port,
                InetSocketAddress.createUnresolved(host, port),
                true,
                paced,
                NioSocketChannel.class,
                () -> new ChannelHandler[] {
                    new HttpClientCodec(),
                    new HttpObjectAggregator(MAX_UPGRADE_ANSWER),
                    new WebSocketUpgradeHandler(
                            target,
                            new DefaultHttpHeaders().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + tokens.get())),
                    new WebSocketControlHandler()
                });
    }

    /** An IPC client of the Unix domain socket {@code path}. */
    public static MessageClient ipc(Path path, boolean paced) {
        return new MessageClient(
                path.toString(),
                UnixDomainSocketAddress.of(path),
                false,
                paced,
                NioDomainSocketChannel.class,
                () -> new ChannelHandler[0]);
    }

    @Override
    public synchronized CompletableFuture<BlobsOutcome> call(GetBlobsCall call, BlobsListener listener)
            throws IOException, InterruptedException {
        Channel ch = connected();
        long id = nextId++;
        MessageReplyReader replies = ch.pipeline().get(MessageReplyReader.class);
        JsonBlobsReader reply =
                new JsonBlobsReader(call, id, listener, ch.alloc(), replies::replyBytes, System.nanoTime());
        ch.writeAndFlush(new MessageReplyReader.Exchange(JsonGetBlobs.requestBody(call, id), reply));
        return reply.outcome();
    }

    private Channel connected() throws IOException, InterruptedException {
        if (channel != null && channel.isActive()) {
            return channel;
        }
        ChannelFuture connect = bootstrap.connect(address).await();
        if (!connect.isSuccess()) {
            throw new IOException("cannot connect to " + where + ": " + reason(connect.cause()), connect.cause());
        }
        try {
            ready.get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            connect.channel().close();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IOException(
                    cause instanceof BadResponseException refused // the upgrade refused, with the reason
                            ? refused.getMessage()
                            : "no WebSocket at " + where + ": " + reason(cause),
                    cause);
        }
        channel = connect.channel();
        return channel;
    }

    private static String reason(Throwable cause) {
        return cause.getMessage() != null
                ? cause.getMessage()
                : cause.getClass().getSimpleName();
    }

    @Override
    public void pause() {
        Channel ch = channel;
        if (ch != null && paced) {
            ch.pipeline().get(MessageReplyReader.class).pause();
        }
    }

    @Override
    public void resume() {
        Channel ch = channel;
        if (ch != null && paced) {
            ch.pipeline().get(MessageReplyReader.class).resume();
        }
    }

    /** Not synchronized: it may end a call that is connecting, from another thread. */
    @Override
    public void close() {
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
