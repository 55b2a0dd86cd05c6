package io.hexstream.server.ipc;

import io.hexstream.server.http.ConnectionLimit;
import io.hexstream.server.http.EngineServer;
import io.hexstream.server.http.IdleTimeoutHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Engine API on a Unix domain socket ({@code --ipc-path}), through Netty's native epoll transport on an I/O thread
 * of its own ({@code hexstream-ipc}): the socket file is made mode 600 before the first connection is accepted, and a
 * connection whose peer is neither this server's user nor root (read from {@code SO_PEERCRED}) is closed at once, so
 * that one made in the moment between bind and chmod gets nothing either; at most {@link #MAX_CONNECTIONS} connections
 * are open at once (each authenticated, so keeping its place: more are closed at accept), and {@link #close()} removes
 * the file. A file left at the path by a server that was killed is replaced, but only if nothing listens on it.
 */
public final class IpcServer implements AutoCloseable {
    /** The most IPC connections open at once: a consensus client or two, and a tool. */
    public static final int MAX_CONNECTIONS = 8;
    /** Prefix of the I/O thread's name. */
    public static final String IO_THREAD = "hexstream-ipc";
    /** How long {@link #close()} lets the replies in flight finish before it closes their connections. */
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    private final EventLoopGroup group;
    private final Channel listening;
    private final ChannelGroup connections;
    private final Path path;
    private final AtomicBoolean closing = new AtomicBoolean();

    private IpcServer(EventLoopGroup group, Channel listening, ChannelGroup connections, Path path) {
        this.group = group;
        this.listening = listening;
        this.connections = connections;
        this.path = path;
    }

    /**
     * Listens on {@code path} and starts serving.
     *
     * @param pipeline each connection's ({@link IpcPipeline})
     * @param limit the connections' limit, {@link #MAX_CONNECTIONS} places of their own
     * @throws IOException with a one-line message: the native transport is not available here, the path is taken (a
     *     server listens on it, or it is not a socket), or it could not be bound
     */
    public static IpcServer start(Path path, ChannelInitializer<Channel> pipeline, ConnectionLimit limit)
            throws IOException, InterruptedException {
        if (!Epoll.isAvailable()) {
            throw new IOException("Unix domain sockets need Netty's native epoll transport (Linux x86-64), not"
                    + " available here: " + Epoll.unavailabilityCause().getMessage());
        }
        replaceStale(path);
        int owner = ownUid(path.toAbsolutePath().getParent());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory(IO_THREAD, true), EpollIoHandler.newFactory());
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        try {
            ChannelFuture bound = new ServerBootstrap()
                    .group(group)
                    .channel(EpollServerDomainSocketChannel.class)
                    .option(ChannelOption.AUTO_READ, false) // nothing accepted before the file is mode 600
                    .handler(limit)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, EngineServer.WATER_MARK)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel connection) {
                            if (!sameUser((EpollDomainSocketChannel) connection, owner)) {
                                connection.close();
                                return;
                            }
                            connections.add(connection);
                            ConnectionLimit.proven(connection); // authenticated: the file's permissions let it in
                            connection.pipeline().addLast(pipeline);
                        }
                    })
                    .bind(new DomainSocketAddress(path.toFile()))
                    .await();
            if (bound.cause() != null) {
                throw new IOException("cannot listen: " + bound.cause().getMessage(), bound.cause());
            }
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
            bound.channel().config().setAutoRead(true);
            return new IpcServer(group, bound.channel(), connections, path);
        } catch (IOException | InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).awaitUninterruptibly();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Whether the file is a socket: {@code S_IFSOCK} in the type bits of its {@code unix:mode}. */
    private static boolean isSocket(Path path) throws IOException {
        int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        return (mode & 0xF000) == 0xC000;
    }

    /** This process's user id: the owner of a file it creates in {@code dir}. */
    private static int ownUid(Path dir) throws IOException {
        Path probe = Files.createTempFile(dir, ".hexstream-ipc", ".uid");
        try {
            return (Integer) Files.getAttribute(probe, "unix:uid");
        } finally {
            Files.delete(probe);
        }
    }

    /** Whether the connection's peer runs as {@code uid} or as root; {@code false} if the kernel cannot say. */
    private static boolean sameUser(EpollDomainSocketChannel connection, int uid) {
        try {
            int peer = connection.peerCredentials().uid();
            return peer == uid || peer == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Deletes a socket file nothing listens on; refuses one something listens on, or a path that is no socket. */
    private static void replaceStale(Path path) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!isSocket(path)) {
            throw new IOException("exists and is not a socket");
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw new IOException("a server is listening on it");
        } catch (java.net.SocketException nobody) {
            Files.delete(path); // left by a server that is gone
        }
    }

    public Path path() {
        return path;
    }

    /**
     * Stops accepting, lets the replies in flight finish for up to 2 s (a connection closes once its last one is
     * written; an idle one at once), closes the connections left, stops the thread and removes the socket file.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closing.compareAndSet(false, true)) {
            listening.close().syncUninterruptibly();
            for (Channel connection : connections) {
                connection.pipeline().fireUserEventTriggered(IdleTimeoutHandler.CLOSE_WHEN_IDLE);
            }
            connections.newCloseFuture().awaitUninterruptibly(DRAIN_TIMEOUT.toMillis());
            connections.close().awaitUninterruptibly();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // the directory went away or is no longer ours: nothing left to remove
            }
        }
        group.terminationFuture().syncUninterruptibly();
    }
}
