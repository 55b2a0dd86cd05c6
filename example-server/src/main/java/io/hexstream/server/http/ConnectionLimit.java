package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Refuses connections at accept beyond {@code max} open at once over the ports it is given to (an
 * {@link EngineServer.Port} each): ports given the same instance share its places, a port given another one cannot take
 * them. The refused connection is closed before anything is read from it or set up for it (logged by
 * {@link RefusalLog}). Sits on the listening channels, before the bootstrap hands the accepted ones on.
 */
@Sharable
public final class ConnectionLimit extends ChannelInboundHandlerAdapter {
    private final int max;
    private final String name;
    private final RefusalLog log;
    private final ServerMetrics metrics;
    private final AtomicInteger open = new AtomicInteger();

    /**
     * @param max the most connections open at once, at least 1
     * @param name what the refusal log names the limit by, e.g. {@code --max-connections}
     * @param metrics told each connection opened, closed or refused ({@link ServerMetrics#NONE}: not counted)
     */
    public ConnectionLimit(int max, String name, RefusalLog log, ServerMetrics metrics) {
        if (max < 1) {
            throw new IllegalArgumentException("max connections " + max + " < 1");
        }
        this.max = max;
        this.name = name;
        this.log = log;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        if (open.incrementAndGet() > max) {
            open.decrementAndGet();
            metrics.refused(ServerMetrics.Limit.MAX_CONNECTIONS);
            log.refused(child.remoteAddress(), "connection: " + max + " are open (" + name + ")");
            child.unsafe().closeForcibly();
            return;
        }
        metrics.connectionOpened();
        child.closeFuture().addListener(closed -> {
            open.decrementAndGet();
            metrics.connectionClosed();
        });
        ctx.fireChannelRead(child);
    }
}
