package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponseEncoder;
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
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Engine API's HTTP server. Per connection:
 * {@code HttpServerCodec → HttpObjectAggregator (413 above the limit, before reading the body) →
 * ChunkedWriteHandler → JsonResponseEncoder → IdleTimeoutHandler → EngineApiHandler}. No compression: responses are sent
 * as they are whatever the client's {@code Accept-Encoding}. I/O threads are named
 * {@code hexstream-io-*}.
 */
public final class EngineServer implements AutoCloseable {
    /** Prefix of the I/O threads' names. */
    public static final String IO_THREADS = "hexstream-io";

    /**
     * Per connection, the bytes queued for the socket above which the channel turns unwritable and
     * {@code ChunkedWriteHandler} stops producing chunks, and below which it resumes. A response is
     * produced at most this far (plus one chunk) ahead of the socket, so a stalled reader pins at most
     * about 768 KiB of direct memory; 512 KiB ahead keeps the socket busy while the next chunk is made.
     */
    static final WriteBufferWaterMark WATER_MARK = new WriteBufferWaterMark(256 * 1024, 512 * 1024);

    /** How long {@link #close()} lets the responses in flight finish before it closes their connections. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    private final EventLoopGroup group;
    private final Channel channel;
    private final ChannelGroup connections;
    private final AtomicBoolean closing = new AtomicBoolean();

    private EngineServer(EventLoopGroup group, Channel channel, ChannelGroup connections) {
        this.group = group;
        this.channel = channel;
        this.connections = connections;
    }

    /**
     * Binds and starts serving.
     *
     * @param maxRequestBytes the largest request body accepted; larger ones get {@code 413}
     * @param idleTimeout how long a connection may wait for a whole request while no response is being
     *     written before it is closed ({@link IdleTimeoutHandler}); zero for no limit
     * @throws IOException if the address cannot be bound: a {@link java.net.BindException} when the port
     *     is in use or the host is not this machine's
     */
    public static EngineServer start(String host, int port, int maxRequestBytes, Duration idleTimeout,
            EngineApiHandler handler) throws IOException, InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory(IO_THREADS, true),
                NioIoHandler.newFactory());
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        try {
            ChannelFuture bound = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .handler(new Tracker(connections))
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(maxRequestBytes),
                                    new ChunkedWriteHandler(), new JsonResponseEncoder(),
                                    new IdleTimeoutHandler(idleTimeout), handler);
                        }
                    })
                    .bind(host, port).await();
            Throwable failure = bound.cause();
            if (failure instanceof IOException io) {
                throw io;
            }
            if (failure instanceof RuntimeException unchecked) { // UnresolvedAddressException
                throw unchecked;
            }
            if (failure != null) {
                throw new IOException(failure);
            }
            return new EngineServer(group, bound.channel(), connections);
        } catch (IOException | InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
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

    /**
     * Heap bytes allocated so far by every I/O thread of every server in this JVM (JDK per-thread
     * allocation counters): the figure the heap tests and the end-to-end benchmark report.
     */
    public static long ioThreadsAllocatedBytes() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(IO_THREADS)) {
                total += threads.getThreadAllocatedBytes(info.getThreadId());
            }
        }
        return total;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /**
     * Stops accepting and reading requests, lets the responses in flight finish for up to
     * {@link #DRAIN_TIMEOUT} (a connection closes as soon as its last one is written; an idle one at once),
     * then closes the connections left (releasing what they stream) and stops the threads. Idempotent and
     * thread-safe: every caller returns once the server is stopped.
     */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            channel.close().syncUninterruptibly();
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
