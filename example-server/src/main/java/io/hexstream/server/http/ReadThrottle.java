package io.hexstream.server.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Stops reading a connection while it is paused, first in the pipeline (next to the socket): turning {@code autoRead}
 * off is not enough by itself, because the HTTP decoder and the aggregator ask for more bytes ({@code read()}) whenever
 * they hold part of a request, and pipelined requests always leave part of the next one in the last read. While paused,
 * every {@code read()} is held back and bytes that were already read when it paused wait here, undecoded; on
 * {@link #resume} they go on and reading starts again. So a paused connection holds at most what one read brought in.
 * One instance per connection, used on its event loop; it stays when the connection switches protocols, for the new
 * protocol's handlers to pause.
 */
public final class ReadThrottle extends ChannelDuplexHandler {
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean paused;
    private boolean readWanted;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Stops reading: nothing more is read from the socket or passed on until {@link #resume}. */
    public void pause() {
        if (!paused) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Passes on what was held back, then reads again (unless that paused it anew). */
    public void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        boolean passed = !held.isEmpty();
        while (!paused && !held.isEmpty()) {
            ctx.fireChannelRead(held.poll());
        }
        if (passed) {
            ctx.fireChannelReadComplete();
        }
        if (!paused) {
            ctx.channel().config().setAutoRead(true);
            if (readWanted) {
                readWanted = false;
                ctx.read();
            }
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (paused) {
            readWanted = true;
        } else {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (paused) {
            held.add(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!paused) {
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        held.forEach(ReferenceCountUtil::release);
        held.clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        held.forEach(ReferenceCountUtil::release);
        held.clear();
        ctx.fireChannelInactive();
    }
}
