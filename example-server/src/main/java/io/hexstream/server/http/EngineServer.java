package io.hexstream.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Engine API's HTTP server: one event-loop group (I/O threads named {@code hexstream-io-*}) serving
 * one or more ports, each with its own pipeline ({@link EngineApiInitializer}: the JWT port, and the
 * optional port without it), and one {@link ConnectionLimit} over all of them.
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

    /** One port to serve: where, and with which pipeline. */
    public record Port(String host, int port, EngineApiInitializer pipeline) {}

    private final EventLoopGroup group;
    private final List<Channel> channels;

    private EngineServer(EventLoopGroup group, List<Channel> channels) {
        this.group = group;
        this.channels = channels;
    }

    /**
     * Binds every port (in order) and starts serving; if one cannot be bound, those bound are closed.
     *
     * @param maxConnections the most connections open at once over all ports ({@code --max-connections})
     */
    public static EngineServer start(List<Port> ports, int maxConnections, RefusalLog refusals) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, new DefaultThreadFactory(IO_THREADS, true),
                NioIoHandler.newFactory());
        List<Channel> channels = new ArrayList<>(ports.size());
        ConnectionLimit limit = new ConnectionLimit(maxConnections, refusals);
        try {
            for (Port port : ports) {
                channels.add(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                        .handler(limit)
                        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, WATER_MARK)
                        .childHandler(port.pipeline())
                        .bind(port.host(), port.port()).sync().channel());
            }
            return new EngineServer(group, channels);
        } catch (InterruptedException | RuntimeException e) {
            channels.forEach(Channel::close);
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** The address of the {@code index}-th port, in the order given to {@link #start}. */
    public InetSocketAddress address(int index) {
        return (InetSocketAddress) channels.get(index).localAddress();
    }

    /** Blocks until the first port is closed. */
    public void awaitClose() throws InterruptedException {
        channels.get(0).closeFuture().sync();
    }

    /** Stops accepting, closes every connection (releasing what they stream), and stops the threads. */
    @Override
    public void close() {
        channels.forEach(channel -> channel.close().syncUninterruptibly());
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
