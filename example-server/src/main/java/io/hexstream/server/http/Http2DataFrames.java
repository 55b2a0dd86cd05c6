package io.hexstream.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CoalescingBufferQueue;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import java.util.ArrayDeque;

/**
 * The DATA frames of a server's streams, written under Netty's flow control as Netty's encoder writes them, for less
 * per frame: a 35 MB reply is about 2,150 frames at the client's default {@code SETTINGS_MAX_FRAME_SIZE} of 16 KiB, and
 * Netty's frame writer spends, per frame, a header buffer, two promises and an aggregator's bookkeeping. Here, each
 * time the flow controller lets a stream write ({@link Http2RemoteFlowController.FlowControlled#write}), each frame
 * goes out as two buffers (its 9-byte header, from the channel's allocator, and a slice of the body's chunk: no copy),
 * all with the channel's void promise but the last, which carries the write's promise. The frames are those of RFC 9113
 * 6.1 (no padding: a frame with padding is written by Netty's own writer), cut at the client's current
 * {@code SETTINGS_MAX_FRAME_SIZE}; everything else (stream states, the flow controller's accounting, END_STREAM and the
 * stream's close, errors) is as Netty's {@code DefaultHttp2ConnectionEncoder} does it.
 *
 * <p>A failed write of one of these frames fails the connection (the void promise reports it to the pipeline, and the
 * last frame's promise fails the stream's data): a socket that fails a write takes no more.
 */
final class Http2DataFrames extends DecoratingHttp2ConnectionEncoder {
    private Http2LifecycleManager lifecycle;

    Http2DataFrames(Http2ConnectionEncoder delegate) {
        super(delegate);
    }

    @Override
    public void lifecycleManager(Http2LifecycleManager lifecycleManager) {
        this.lifecycle = lifecycleManager;
        super.lifecycleManager(lifecycleManager);
    }

    @Override
    public ChannelFuture writeData(
            ChannelHandlerContext ctx,
            int streamId,
            ByteBuf data,
            int padding,
            boolean endOfStream,
            ChannelPromise promise) {
        if (padding != 0) {
            return super.writeData(ctx, streamId, data, padding, endOfStream, promise);
        }
        ChannelPromise done = promise.unvoid();
        Http2Stream stream = connection().stream(streamId);
        if (stream == null
                || stream.state() != Http2Stream.State.OPEN && stream.state() != Http2Stream.State.HALF_CLOSED_REMOTE) {
            data.release();
            return done.setFailure(new IllegalStateException("stream " + streamId + " cannot send DATA in state "
                    + (stream == null ? "closed" : stream.state())));
        }
        flowController().addFlowControlled(stream, new Data(stream, data, endOfStream, done));
        return done;
    }

    /**
     * One stream's data waiting for its window, merged with what the stream writes next while it waits. The buffers are
     * written one at a time (their lengths kept in {@link #lengths}), never joined: a frame is then a slice of one
     * chunk, which a pooled chunk makes without a new object, where a frame across two chunks would need a composite
     * buffer and its NIO views.
     */
    private final class Data implements Http2RemoteFlowController.FlowControlled, ChannelFutureListener {
        private final Http2Stream stream;
        private final ChannelPromise promise;
        private final CoalescingBufferQueue queue;
        /** The unwritten bytes of each non-empty buffer in {@link #queue}, in order. */
        private final ArrayDeque<Integer> lengths = new ArrayDeque<>(4);

        private boolean endOfStream;
        private int size;

        Data(Http2Stream stream, ByteBuf data, boolean endOfStream, ChannelPromise promise) {
            this.stream = stream;
            this.promise = promise;
            this.endOfStream = endOfStream;
            this.queue = new CoalescingBufferQueue(promise.channel());
            if (data.isReadable()) {
                lengths.add(data.readableBytes());
            }
            queue.add(data, promise);
            this.size = queue.readableBytes();
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void error(ChannelHandlerContext ctx, Throwable cause) {
            queue.releaseAndFailAll(cause); // size stays: the flow controller gives back what it counted
            lengths.clear();
            lifecycle.onError(ctx, true, cause);
        }

        @Override
        public void writeComplete() {
            if (endOfStream) {
                lifecycle.closeStreamLocal(stream, promise);
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, int allowedBytes) {
            if (queue.isEmpty()) {
                size = 0; // cleared by an error: all consumed
                return;
            }
            int allowed = allowedBytes;
            do {
                int first = lengths.isEmpty() ? 0 : lengths.peekFirst();
                int bytes = Math.min(first, allowed);
                if (first > 0 && bytes == 0) {
                    return; // the window is shut
                }
                ChannelPromise written = ctx.newPromise().addListener(this);
                if (first == 0 && !endOfStream) { // only empty buffers, before the end: no frame, their promises kept
                    ctx.write(queue.remove(0, written), written);
                    return;
                }
                ByteBuf body = queue.remove(bytes, written); // empty buffers right after it go with it
                if (first > 0) {
                    lengths.removeFirst();
                    if (bytes < first) {
                        lengths.addFirst(first - bytes);
                    }
                }
                allowed -= bytes;
                size = queue.readableBytes();
                writeFrames(ctx, body, endOfStream && size == 0, written);
            } while (allowed > 0 && !lengths.isEmpty());
        }

        /** {@code body} as DATA frames of at most the peer's frame size, the last one carrying {@code written}. */
        private void writeFrames(ChannelHandlerContext ctx, ByteBuf body, boolean end, ChannelPromise written) {
            int maxFrame = configuration().frameSizePolicy().maxFrameSize();
            int frames = Math.max(1, (body.readableBytes() + maxFrame - 1) / maxFrame);
            try {
                for (int i = 0; i < frames; i++) {
                    int length = Math.min(body.readableBytes(), maxFrame);
                    boolean last = i == frames - 1;
                    // the channel's allocator: on its event loop, a small buffer whose object is recycled
                    ByteBuf header = ctx.alloc().ioBuffer(Http2CodecUtil.FRAME_HEADER_LENGTH);
                    header.writeMedium(length);
                    header.writeByte(Http2FrameTypes.DATA);
                    header.writeByte(last && end ? 0x1 : 0); // END_STREAM (RFC 9113 6.1)
                    header.writeInt(stream.id());
                    ctx.write(header, ctx.voidPromise());
                    ctx.write(body.readRetainedSlice(length), last ? written : ctx.voidPromise());
                }
            } finally {
                body.release();
            }
        }

        @Override
        public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
            if (!(next instanceof Data more) || Integer.MAX_VALUE - more.size() < size()) {
                return false;
            }
            more.queue.copyTo(queue);
            lengths.addAll(more.lengths);
            size = queue.readableBytes();
            endOfStream = more.endOfStream;
            return true;
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            if (!future.isSuccess()) {
                error(flowController().channelHandlerContext(), future.cause());
            }
        }
    }
}
