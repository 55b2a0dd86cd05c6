package io.hexstream.server.http;

import io.hexstream.server.exchange.ReadThrottle;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Ends a connection after the response to a request whose body may still be arriving (refused on its head, or not
 * readable whole), so that the response is delivered, not reset: closing a socket with unread bytes sends a reset, and
 * the client may drop the response before it has read it. On {@link #START} (once the response is written) the output
 * is shut down (the client reads the response, then the end of the stream), and what still arrives is read and dropped
 * until the client closes its side, {@link #LINGER} has passed or more than {@code maxDiscardedBytes} have come; then
 * the connection closes. The connection's place under its {@link ConnectionLimit} is then the first to go to a new
 * connection.
 *
 * <p>A close asked for while it lingers (an HTTP/2 connection's frame codec closes once its last stream is done,
 * {@link Http2ConnectionWatch}) waits for the lingering to end: the close it was asked for completes with the
 * connection's.
 *
 * <p>Next to the socket, before {@link ReadThrottle} (whose pause it reads through); passes everything on until it
 * starts. One instance per connection, used on its event loop.
 */
public final class LingeringClose extends ChannelDuplexHandler {
    /** The longest a connection is read and dropped, its output shut, before it closes. */
    public static final Duration LINGER = Duration.ofSeconds(1);

    /** The user event that starts the lingering close, fired on the connection's pipeline. */
    static final Object START = new Object() {
        @Override
        public String toString() {
            return "LINGERING_CLOSE";
        }
    };

    private final long maxDiscardedBytes;
    private boolean lingering;
    private long discarded;
    private Future<?> deadline;

    /**
     * @param maxDiscardedBytes the most bytes dropped before the connection closes anyway ({@code --max-request-bytes}:
     *     a refused request costs no more reading than an accepted one)
     */
    LingeringClose(long maxDiscardedBytes) {
        this.maxDiscardedBytes = maxDiscardedBytes;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
        if (event != START) {
            super.userEventTriggered(ctx, event);
            return;
        }
        if (lingering) {
            return;
        }
        lingering = true;
        if (!(ctx.channel() instanceof DuplexChannel duplex) || !duplex.isActive()) {
            ctx.close();
            return;
        }
        ConnectionLimit.lingering(ctx.channel());
        duplex.shutdownOutput().addListener(shut -> {
            if (shut.isSuccess()) {
                ctx.read();
            } else {
                ctx.close();
            }
        });
        deadline = ctx.executor().schedule(() -> ctx.close(), LINGER.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (lingering && ctx.channel().isActive()) {
            ctx.channel().closeFuture().addListener(closed -> promise.trySuccess());
        } else {
            ctx.close(promise);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!lingering) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (msg instanceof ByteBuf bytes) {
            discarded += bytes.readableBytes();
        }
        ReferenceCountUtil.release(msg);
        if (discarded > maxDiscardedBytes) {
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (!lingering) {
            ctx.fireChannelReadComplete();
        } else if (ctx.channel().isActive()) {
            ctx.read(); // autoRead is off (the connection was paused); the end of the stream closes it
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (deadline != null) {
            deadline.cancel(false); // a flood of refusals leaves no timers behind
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (lingering) {
            ctx.close(); // a reset from the client while lingering: nothing is left to deliver
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }
}
