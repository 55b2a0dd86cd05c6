package io.hexstream.server.exchange;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Stops reading a connection while it is paused, first in the pipeline (next to the socket): turning {@code autoRead}
 * off is not enough by itself, because the HTTP decoder and the aggregator ask for more bytes ({@code read()}) whenever
 * they hold part of a request, and pipelined requests always leave part of the next one in the last read. While paused,
 * every {@code read()} is held back and bytes that were already read when it paused wait here, undecoded; once nothing
 * holds it any more they go on and reading starts again. So a paused connection holds at most what one read brought in.
 * Two holds, either enough to pause: {@link #pause}/{@link #resume} (the handler that counts unwritten responses), and
 * {@link #pauseUntilWritable} (a handler owing the peer a frame it must not queue while the socket is full, e.g. a
 * WebSocket pong), which lets go when the channel is writable again. One instance per connection, used on its event
 * loop; it stays when the connection switches protocols, for the new protocol's handlers to pause.
 */
public final class ReadThrottle extends ChannelDuplexHandler {
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** Held by {@link #pause}. */
    private boolean paused;
    /** Held by {@link #pauseUntilWritable} while the channel is not writable. */
    private boolean untilWritable;

    private boolean readWanted;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    private boolean stopped() {
        return paused || untilWritable;
    }

    /** Stops reading: nothing more is read from the socket or passed on until {@link #resume}. */
    public void pause() {
        paused = true;
        ctx.channel().config().setAutoRead(false);
    }

    /**
     * Lets go of {@link #pause}: unless {@link #pauseUntilWritable} still holds, passes on what was held, reads again.
     */
    public void resume() {
        if (paused) {
            paused = false;
            release();
        }
    }

    /**
     * Stops reading until the channel is writable, if it is not now: what a peer sends cannot make the server queue
     * more than the socket takes.
     */
    public void pauseUntilWritable() {
        if (!ctx.channel().isWritable() && ctx.channel().isActive()) {
            untilWritable = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (untilWritable && ctx.channel().isWritable()) {
            untilWritable = false;
            release();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Passes on what was held back, then reads again (unless that stopped it anew). */
    private void release() {
        if (stopped()) {
            return;
        }
        boolean passed = !held.isEmpty();
        while (!stopped() && !held.isEmpty()) {
            ctx.fireChannelRead(held.poll());
        }
        if (passed) {
            ctx.fireChannelReadComplete();
        }
        if (!stopped()) {
            ctx.channel().config().setAutoRead(true);
            if (readWanted) {
                readWanted = false;
                ctx.read();
            }
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (stopped()) {
            readWanted = true;
        } else {
            ctx.read();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (stopped()) {
            held.add(msg);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!stopped()) {
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
