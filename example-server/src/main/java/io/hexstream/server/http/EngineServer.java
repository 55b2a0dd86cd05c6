package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponseEncoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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

    private final EventLoopGroup group;
    private final Channel channel;

    private EngineServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds and starts serving.
     *
     * @param maxRequestBytes the largest request body accepted; larger ones get {@code 413}
     * @param idleTimeout how long a connection may wait for a whole request while no response is being
     *     written before it is closed ({@link IdleTimeoutHandler}); zero for no limit
     */
    public static EngineServer start(String host, int port, int maxRequestBytes, Duration idleTimeout,
            EngineApiHandler handler) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory(IO_THREADS, true),
                NioIoHandler.newFactory());
        try {
            Channel channel = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(maxRequestBytes),
                                    new ChunkedWriteHandler(), new JsonResponseEncoder(),
                                    new IdleTimeoutHandler(idleTimeout), handler);
                        }
                    })
                    .bind(host, port).sync().channel();
            return new EngineServer(group, channel);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
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

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        channel.closeFuture().sync();
    }

    /** Stops accepting, closes every connection (releasing what they stream), and stops the threads. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
