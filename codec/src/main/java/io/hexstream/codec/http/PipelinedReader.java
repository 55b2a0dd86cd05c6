package io.hexstream.codec.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The bookkeeping of a client handler whose replies answer its requests in order, on one connection: the readers of the
 * replies waiting, the one being read, their failure, and paced socket reads. A subclass sends each request with
 * {@link #send}, takes the next reader when a reply begins ({@link #next()}) and lets it go when it ends
 * ({@link #done()}). A failed write, an exception in the pipeline or the connection's end fail the reader being read
 * and every one waiting, in order ({@link #failAll}), and close the connection.
 *
 * <p>Paced reading, for a reader that bounds its memory: constructed with {@code paced}, the handler turns the
 * channel's auto-read off and asks for the next socket read only after the previous one has been read, unless
 * {@link #pause()} was called; {@link #resume()} reads on. Both may be called from any thread; everything else runs on
 * the channel's event loop.
 *
 * @param <C> the reader of one reply
 */
public abstract class PipelinedReader<C> extends ChannelDuplexHandler {
    private final boolean paced;
    private final ArrayDeque<C> waiting = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    /** The reader of the reply being read; null between replies and while a failed reply is dropped. */
    private C current;

    private boolean paused;

    /** A handler reading as fast as the socket delivers ({@code paced = false}) or as the readers ask. */
    protected PipelinedReader(boolean paced) {
        this.paced = paced;
    }

    /** Stops asking for socket reads after the one under way (paced handlers only). */
    public final void pause() {
        onLoop(() -> paused = true);
    }

    /** Asks for socket reads again after {@link #pause()} (paced handlers only). */
    public final void resume() {
        onLoop(() -> {
            if (paused) {
                paused = false;
                ctx.read();
            }
        });
    }

    private void onLoop(Runnable task) {
        if (!paced) {
            throw new IllegalStateException("only a paced " + getClass().getSimpleName() + " is paused and resumed");
        }
        if (ctx.executor().inEventLoop()) {
            task.run();
        } else {
            ctx.executor().execute(task);
        }
    }

    /** Tells {@code reader} of the failure of its exchange. */
    protected abstract void failed(C reader, Throwable cause);

    /**
     * Writes {@code request} and queues {@code reader} for its reply. A request that is not sent leaves its reply
     * unmatched: its failure fails every exchange and closes the connection.
     */
    protected final void send(ChannelHandlerContext ctx, C reader, Object request, ChannelPromise promise) {
        waiting.add(reader);
        ctx.write(request, promise.unvoid()).addListener(future -> {
            if (!future.isSuccess()) {
                failAll(future.cause());
                ctx.close();
            }
        });
    }

    /** A reply begins: the next waiting reader becomes the current one; null if none waits. */
    protected final C next() {
        current = waiting.poll();
        return current;
    }

    /** The reader of the reply being read, or null. */
    protected final C current() {
        return current;
    }

    /** The current reply has ended or failed: the rest of it, if any, is dropped. */
    protected final void done() {
        current = null;
    }

    /** Fails the reader being read and every one waiting, in order. */
    protected final void failAll(Throwable cause) {
        C reader = current;
        current = null;
        if (reader != null) {
            failed(reader, cause);
        }
        while ((reader = waiting.poll()) != null) {
            failed(reader, cause);
        }
    }

    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (paced) {
            ctx.channel().config().setAutoRead(false);
            if (ctx.channel().isActive()) {
                ctx.read();
            }
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (paced) {
            ctx.read();
        }
        ctx.fireChannelActive();
    }

    @Override
    public final void channelReadComplete(ChannelHandlerContext ctx) {
        if (paced && !paused) {
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        failAll(new ClosedChannelException());
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failAll(cause);
        ctx.close();
    }
}
