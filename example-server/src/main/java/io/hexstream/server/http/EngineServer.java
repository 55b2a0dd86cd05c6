package io.hexstream.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.unix.Errors;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Engine API's HTTP server: one event-loop group (I/O threads named {@code hexstream-io-*}) serving one or more
 * ports, each with its own pipeline (an {@link EngineApiInitializer} with the port's {@link RouteTable}: the JWT port,
 * the optional port without it, the metrics port) and its {@link ConnectionLimit}, which ports may share.
 */
public final class EngineServer implements AutoCloseable {
    /** Prefix of the I/O threads' names. */
    public static final String IO_THREADS = "hexstream-io";

    /**
     * Per connection, the bytes queued for the socket above which the channel turns unwritable and
     * {@code StreamedResponseEncoder} stops producing chunks, and below which it resumes. A response is produced at
     * most this far (plus one chunk) ahead of the socket, so a stalled reader pins at most about 768 KiB of direct
     * memory; 512 KiB ahead keeps the socket busy while the next chunk is made.
     */
    public static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 512 * 1024);

    /**
     * One port to serve: where, with which pipeline, and the limit its connections count against (ports given the same
     * {@link ConnectionLimit} share its places).
     */
    public record Port(String host, int port, EngineApiInitializer pipeline, ConnectionLimit limit) {}

    /** How long {@link #close()} lets the responses in flight finish before it closes their connections. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    private final EventLoopGroup group;
    private final List<Port> ports;
    /** The listening channel of each of {@link #ports}, in the same order. */
    private final List<Channel> channels;

    private final ChannelGroup connections;
    private final AtomicBoolean closing = new AtomicBoolean();

    private EngineServer(EventLoopGroup group, List<Port> ports, List<Channel> channels, ChannelGroup connections) {
        this.group = group;
        this.ports = ports;
        this.channels = channels;
        this.connections = connections;
    }

    /**
     * Binds every port (in order) and starts serving; if one cannot be bound, those bound are closed.
     *
     * @throws BindFailure naming the port that could not be bound; its cause says why (a {@link java.net.BindException}
     *     when the port is in use or the host is not this machine's, an
     *     {@link java.nio.channels.UnresolvedAddressException} for a host name that does not resolve)
     */
    public static EngineServer start(List<Port> ports) throws BindFailure, InterruptedException {
        boolean epoll = nativeTransport();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(
                0,
                new DefaultThreadFactory(IO_THREADS, true),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        List<Channel> channels = new ArrayList<>(ports.size());
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        Tracker tracker = new Tracker(connections);
        try {
            for (Port port : ports) {
                ChannelFuture bound = new ServerBootstrap()
                        .group(group)
                        .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                        .handler(new ChannelInitializer<Channel>() {
                            @Override
                            protected void initChannel(Channel listening) {
                                listening.pipeline().addLast(port.limit(), tracker);
                            }
                        })
                        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                        .childHandler(port.pipeline())
                        .bind(port.host(), port.port())
                        .await();
                if (bound.cause() != null) {
                    throw new BindFailure(port, asBindException(bound.cause()));
                }
                channels.add(bound.channel());
            }
            return new EngineServer(group, List.copyOf(ports), channels, connections);
        } catch (BindFailure | InterruptedException | RuntimeException e) {
            channels.forEach(Channel::close);
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Whether the ports run on Netty's native epoll transport (it loads on Linux x86-64 and AArch64 unless
     * {@code io.netty.transport.noNative} is set): a write then gathers its buffers by address, with no NIO view object
     * per buffer. Otherwise they run on NIO.
     */
    public static boolean nativeTransport() {
        return Epoll.isAvailable();
    }

    /**
     * Linux's errno values for the bind failures NIO reports as a {@link BindException}: in use, not ours, privileged.
     */
    private static final int[] BIND_ERRNOS = {98, 99, 13}; // EADDRINUSE, EADDRNOTAVAIL, EACCES

    /**
     * The bind failure as NIO reports it, whichever transport bound: epoll's {@link Errors.NativeIoException} for a
     * port in use, an address not this machine's or a privileged port becomes a {@link BindException} with its message.
     */
    private static Throwable asBindException(Throwable cause) {
        if (cause instanceof Errors.NativeIoException nativeFailure) {
            for (int errno : BIND_ERRNOS) {
                if (nativeFailure.expectedErr() == -errno) {
                    BindException bind = new BindException(nativeFailure.getMessage());
                    bind.initCause(nativeFailure);
                    return bind;
                }
            }
        }
        return cause;
    }

    /** A port that could not be bound, and why (the cause). */
    public static final class BindFailure extends IOException {
        private static final long serialVersionUID = 1L;

        private final transient Port port;

        BindFailure(Port port, Throwable cause) {
            super(port.host() + ":" + port.port() + ": " + cause.getMessage(), cause);
            this.port = port;
        }

        public Port port() {
            return port;
        }
    }

    /** On the listening channel: puts every accepted connection in {@code connections}, for {@link #close()}. */
    @Sharable
    private static final class Tracker extends ChannelInboundHandlerAdapter {
        private final ChannelGroup connections;

        Tracker(ChannelGroup connections) {
            this.connections = connections;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object accepted) {
            connections.add((Channel) accepted);
            ctx.fireChannelRead(accepted);
        }
    }

    /** Where {@code port}, one of those given to {@link #start}, is bound (a free one if it asked for 0). */
    public InetSocketAddress address(Port port) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i) == port) {
                return (InetSocketAddress) channels.get(i).localAddress();
            }
        }
        throw new IllegalArgumentException("not a port of this server: " + port);
    }

    /**
     * Stops accepting and reading requests, lets the responses in flight finish for up to {@link #DRAIN_TIMEOUT} (a
     * connection closes as soon as its last one is written; an idle one at once), then closes the connections left
     * (releasing what they stream) and stops the threads. Idempotent and thread-safe: every caller returns once the
     * server is stopped.
     */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            channels.forEach(channel -> channel.close().syncUninterruptibly());
            for (Channel connection : connections) {
                connection.pipeline().fireUserEventTriggered(IdleTimeoutHandler.CLOSE_WHEN_IDLE);
            }
            connections.newCloseFuture().awaitUninterruptibly(DRAIN_TIMEOUT.toMillis());
            connections.close().awaitUninterruptibly();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        }
        group.terminationFuture().syncUninterruptibly();
    }
}
