package io.hexstream.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.DecoratingHttp2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * The DATA frames of a server's streams, written under Netty's flow control as Netty's encoder writes them, for less
 * per frame: a 35 MB reply is about 2,150 frames at the client's default {@code SETTINGS_MAX_FRAME_SIZE} of 16 KiB, and
 * Netty's frame writer spends, per frame, a header buffer, two promises and an aggregator's bookkeeping. Here, each
 * time the flow controller lets a stream write ({@link Http2RemoteFlowController.FlowControlled#write}), each frame
 * goes out as two buffers (its 9-byte header, a slice of one pooled buffer holding the headers of all the frames
 * written then, and a slice of the body's chunk: no copy), all with the channel's void promise but the last frame of
 * each chunk, which carries the promise its writer gave. The frames are those of RFC 9113 6.1 (no padding: a frame with
 * padding is written by Netty's own writer), cut at the client's current {@code SETTINGS_MAX_FRAME_SIZE}; everything
 * else (stream states, the flow controller's accounting, END_STREAM and the stream's close, errors) is as Netty's
 * {@code DefaultHttp2ConnectionEncoder} does it.
 *
 * <p>A failed write of one of these frames fails the connection (the void promise reports it to the pipeline, and the
 * last frame's promise fails the stream's data): a socket that fails a write takes no more.
 */
final class Http2DataFrames extends DecoratingHttp2ConnectionEncoder {
    /**
     * Where the frames' headers come from: a pooled allocator, whose slices are recycled objects (the adaptive
     * allocator's are new ones, one per frame), so a header costs neither an allocation of its own nor an object.
     */
    private static final ByteBufAllocator HEADERS = PooledByteBufAllocator.DEFAULT;

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
     * One stream's data waiting for its window, merged with what the stream writes next while it waits: the buffers in
     * order, each with the promise its writer gave, which completes with the write of its last byte. The buffers are
     * written one at a time, never joined: a frame is then a slice of one chunk (no composite buffer and its NIO
     * views), and the last frame of a buffer is the buffer itself. A {@code Data} merged into a queued one is linked
     * behind it as it is (no collection of its own): the queued one then walks the chain.
     */
    private final class Data implements Http2RemoteFlowController.FlowControlled {
        private final Http2Stream stream;
        /** The buffer being written and its promise; {@code null} once all is written or failed. */
        private ByteBuf buffer;

        private ChannelPromise promise;
        /** The merged {@code Data} whose buffer comes after {@link #buffer}, and the last of the chain. */
        private Data next;

        private Data last = this;
        /** The promise of the buffer that ends the stream, once one has come. */
        private ChannelPromise endPromise;

        private int size;

        Data(Http2Stream stream, ByteBuf data, boolean endOfStream, ChannelPromise promise) {
            this.stream = stream;
            this.buffer = data;
            this.promise = promise;
            this.endPromise = endOfStream ? promise : null;
            this.size = data.readableBytes();
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public void error(ChannelHandlerContext ctx, Throwable cause) {
            // size stays: the flow controller gives back what it counted
            for (; buffer != null; next()) {
                buffer.release();
                promise.tryFailure(cause);
            }
            lifecycle.onError(ctx, true, cause);
        }

        @Override
        public void writeComplete() {
            if (endPromise != null) {
                lifecycle.closeStreamLocal(stream, endPromise);
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, int allowedBytes) {
            if (buffer == null) {
                size = 0; // cleared by an error: all consumed
                return;
            }
            int allowed = allowedBytes;
            while (buffer != null) {
                int readable = buffer.readableBytes();
                boolean last = next == null;
                if (readable == 0 && !(last && endPromise != null)) {
                    ctx.write(buffer, promise); // no frame: its promise completes in order
                    next();
                    continue;
                }
                int bytes = Math.min(readable, allowed);
                if (readable > 0 && bytes == 0) {
                    return; // the window is shut
                }
                boolean whole = bytes == readable;
                writeFrames(ctx, bytes, whole && last && endPromise != null, whole);
                size -= bytes;
                allowed -= bytes;
                if (!whole) {
                    return;
                }
                next();
            }
        }

        /** Moves to the next buffer and its promise, if any. */
        private void next() {
            if (next == null) {
                buffer = null;
                promise = null;
                return;
            }
            buffer = next.buffer;
            promise = next.promise;
            next = next.next;
            if (next == null) {
                last = this;
            }
        }

        /**
         * {@code bytes} of {@link #buffer} as DATA frames of at most the peer's frame size, their headers in one
         * buffer. If {@code whole}, the last frame is the rest of the buffer itself, carrying its promise; otherwise
         * every frame is a slice and the buffer stays.
         */
        private void writeFrames(ChannelHandlerContext ctx, int bytes, boolean end, boolean whole) {
            int maxFrame = configuration().frameSizePolicy().maxFrameSize();
            int frames = Math.max(1, (bytes + maxFrame - 1) / maxFrame);
            ByteBuf headers = HEADERS.directBuffer(frames * Http2CodecUtil.FRAME_HEADER_LENGTH);
            boolean headersTracked = leakTracked(headers);
            boolean bufferTracked = leakTracked(buffer);
            int left = bytes;
            for (int i = 1; i <= frames; i++) {
                int length = Math.min(left, maxFrame);
                left -= length;
                headers.writeMedium(length);
                headers.writeByte(Http2FrameTypes.DATA);
                headers.writeByte(i == frames && end ? 0x1 : 0); // END_STREAM (RFC 9113 6.1)
                headers.writeInt(stream.id());
                if (i < frames) {
                    ctx.write(slice(headers, Http2CodecUtil.FRAME_HEADER_LENGTH, headersTracked), ctx.voidPromise());
                    ctx.write(slice(buffer, length, bufferTracked), ctx.voidPromise());
                } else {
                    ctx.write(headers, ctx.voidPromise());
                    ctx.write(
                            whole ? buffer : slice(buffer, length, bufferTracked), whole ? promise : ctx.voidPromise());
                }
            }
        }

        /**
         * The next {@code length} bytes of {@code buffer} as a buffer of their own, holding a reference to it. A buffer
         * the leak detector tracks ({@code tracked}) is sliced sharing its tracker: a retained slice would start a
         * tracker of its own, with a stack trace, for every frame. Any other is sliced retained, which a pooled buffer
         * recycles.
         */
        private static ByteBuf slice(ByteBuf buffer, int length, boolean tracked) {
            return tracked ? buffer.readSlice(length).retain() : buffer.readRetainedSlice(length);
        }

        /** Whether the leak detector tracks {@code buffer}: its allocator wrapped it in a leak-aware buffer. */
        private static boolean leakTracked(ByteBuf buffer) {
            return buffer.getClass().getSimpleName().contains("LeakAware");
        }

        @Override
        public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
            if (!(next instanceof Data data) || Integer.MAX_VALUE - data.size() < size()) {
                return false;
            }
            if (buffer == null) {
                buffer = data.buffer;
                promise = data.promise;
            } else {
                last.next = data;
                last = data;
            }
            size += data.size;
            endPromise = data.endPromise;
            return true;
        }
    }
}
