package io.hexstream.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameSizePolicy;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2LifecycleManager;
import io.netty.handler.codec.http2.Http2RemoteFlowController;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.handler.stream.ChunkedInput;

/**
 * The body of one stream's streamed response as DATA frames (RFC 9113 6.1), queued whole with the connection's remote
 * flow controller ({@link Http2StreamedResponseEncoder}): the controller asks it to write only what the stream's
 * window, the connection's and the socket allow (it gives no stream more than the connection's bytes before
 * unwritable), and only then does it take the body's next chunk from its input. So a stream holds at most one chunk
 * whatever window the client advertises, a stream whose window stays shut holds back no other, and nothing per chunk
 * passes the stream's channel.
 *
 * <p>Frames, without padding, are cut at the client's current {@code SETTINGS_MAX_FRAME_SIZE}; each goes out as two
 * buffers: its 9-byte header, a slice of one pooled buffer holding the headers of the body's frames, and a slice of the
 * chunk (no copy), a chunk's last frame being the chunk itself. All have the connection's void promise but the body's
 * last frame, with END_STREAM, which carries the body's promise; the stream is then closed as Netty's encoder closes
 * it. A failed write fails the connection (the void promise reports it to the connection's pipeline).
 *
 * <p>A body that fails to produce a chunk, or whose chunks come to more or less than its length, is an error of its
 * stream: the flow controller cancels it, which releases the chunk and the input, fails the promise and resets the
 * stream ({@link #error}); so does the stream's reset or close. The connection and its other streams go on.
 */
final class Http2BodyFrames implements Http2RemoteFlowController.FlowControlled {
    /**
     * Where chunks and frame headers come from: a pooled allocator, whose slices (the frames) are recycled objects; the
     * adaptive allocator's are new ones, one per frame.
     */
    static final ByteBufAllocator ALLOCATOR = PooledByteBufAllocator.DEFAULT;
    /** Frames foretold beyond the body's length over the frame size: the short frames where chunks end. */
    private static final int FRAMES_TO_SPARE = 64;
    /** The most room for frame headers taken at once, in bytes: 7,281 frames, 113 MiB of 16 KiB frames. */
    private static final int MAX_HEADER_ROOM = 64 * 1024;

    private final Http2Stream stream;
    private final Http2FrameSizePolicy frameSize;
    private final Http2LifecycleManager lifecycle;
    private final ChannelPromise promise;
    /** The body's chunks; {@code null} once it is all written, or failed. */
    private ChunkedInput<ByteBuf> input;
    /** The chunk being written, when a window cut it. */
    private ByteBuf chunk;
    /**
     * Room for the headers of the frames to come, each frame's a slice: one pooled buffer for the body's frames as
     * {@link #size} foretells them (a buffer per write was a pooled allocation, and a leak detector's sample, per
     * WINDOW_UPDATE); another when the frames outrun it (chunks that end short of a frame, a smaller frame size).
     */
    private ByteBuf headers;
    /** Bytes not yet written. */
    private int size;

    private boolean ended;
    /** {@link System#nanoTime()} when a frame was last written, or when the body was made. */
    private long wroteAt = System.nanoTime();

    /**
     * Takes {@code input}, which it closes once written or failed.
     *
     * @param length the body's exact length in bytes
     * @param promise a promise of the connection's channel: completes with the body's last frame written, or fails
     */
    Http2BodyFrames(
            Http2Stream stream,
            Http2FrameSizePolicy frameSize,
            Http2LifecycleManager lifecycle,
            ChunkedInput<ByteBuf> input,
            int length,
            ChannelPromise promise) {
        this.stream = stream;
        this.frameSize = frameSize;
        this.lifecycle = lifecycle;
        this.input = input;
        this.size = length;
        this.promise = promise;
    }

    Http2Stream stream() {
        return stream;
    }

    /**
     * {@link System#nanoTime()} when a frame of the body was last written (when the body was made, before the first).
     */
    long wroteAt() {
        return wroteAt;
    }

    /** Bytes of the body not yet handed to the socket's queue. */
    @Override
    public int size() {
        return size;
    }

    @Override
    public void write(ChannelHandlerContext ctx, int allowedBytes) {
        int allowed = allowedBytes;
        while (input != null) {
            if (chunk == null) {
                chunk = size == 0 ? Unpooled.EMPTY_BUFFER : nextChunk();
            }
            int readable = chunk.readableBytes();
            int bytes = Math.min(readable, allowed);
            if (readable > 0 && bytes == 0) {
                return; // the window is shut
            }
            boolean whole = bytes == readable;
            boolean end = bytes == size;
            if (bytes > 0 || end) {
                writeFrames(ctx, bytes, end, whole);
                wroteAt = System.nanoTime();
            } else {
                chunk.release(); // an empty chunk: no frame
            }
            size -= bytes;
            allowed -= bytes;
            if (!whole) {
                return;
            }
            chunk = null;
            if (end) {
                ended = true;
                releaseHeaders();
                closeInput();
            }
        }
    }

    /** The input's next chunk, at least a byte and no more than is left of the body's length. */
    private ByteBuf nextChunk() {
        ByteBuf next;
        try {
            next = input.readChunk(ALLOCATOR);
        } catch (Exception e) {
            throw new EncoderException("the body of stream " + stream.id() + " failed", e);
        }
        if (next == null) {
            throw new IllegalStateException(
                    "the body of stream " + stream.id() + " gave no chunk with " + size + " bytes of its length left");
        }
        if (next.readableBytes() > size) {
            int over = next.readableBytes() - size;
            next.release();
            throw new IllegalStateException(
                    "the body of stream " + stream.id() + " runs " + over + " bytes or more past its length");
        }
        return next;
    }

    /**
     * {@code bytes} of {@link #chunk} as DATA frames of at most the peer's frame size, their headers in one buffer; the
     * last frame ends the stream if {@code end}. If {@code whole}, the last frame is the rest of the chunk itself (with
     * the body's promise if {@code end}); otherwise every frame is a slice and the chunk stays.
     */
    private void writeFrames(ChannelHandlerContext ctx, int bytes, boolean end, boolean whole) {
        int maxFrame = frameSize.maxFrameSize();
        int frames = Math.max(1, (bytes + maxFrame - 1) / maxFrame);
        ByteBuf headers = headerRoom(frames, maxFrame);
        boolean headersTracked = leakTracked(headers);
        boolean chunkTracked = leakTracked(chunk);
        int left = bytes;
        for (int i = 1; i <= frames; i++) {
            int length = Math.min(left, maxFrame);
            left -= length;
            headers.writeMedium(length);
            headers.writeByte(Http2FrameTypes.DATA);
            headers.writeByte(i == frames && end ? 0x1 : 0); // END_STREAM (RFC 9113 6.1)
            headers.writeInt(stream.id());
            ctx.write(slice(headers, Http2CodecUtil.FRAME_HEADER_LENGTH, headersTracked), ctx.voidPromise());
            if (i < frames) {
                ctx.write(slice(chunk, length, chunkTracked), ctx.voidPromise());
            } else {
                ctx.write(whole ? chunk : slice(chunk, length, chunkTracked), end ? promise : ctx.voidPromise());
            }
        }
    }

    /** {@link #headers}, with room for {@code frames} more headers. */
    private ByteBuf headerRoom(int frames, int maxFrame) {
        int bytes = frames * Http2CodecUtil.FRAME_HEADER_LENGTH;
        if (headers == null || headers.writableBytes() < bytes) {
            releaseHeaders();
            long foretold = ((long) size / maxFrame + FRAMES_TO_SPARE) * Http2CodecUtil.FRAME_HEADER_LENGTH;
            headers = ALLOCATOR.directBuffer((int) Math.max(bytes, Math.min(foretold, MAX_HEADER_ROOM)));
        }
        return headers;
    }

    private void releaseHeaders() {
        if (headers != null) {
            headers.release(); // its frames' slices hold it until they are written
            headers = null;
        }
    }

    /**
     * The next {@code length} bytes of {@code buffer} as a buffer of their own, holding a reference to it. A buffer the
     * leak detector tracks ({@code tracked}) is sliced sharing its tracker: a retained slice would start a tracker of
     * its own, with a stack trace, for every frame. Any other is sliced retained, which a pooled buffer recycles.
     */
    private static ByteBuf slice(ByteBuf buffer, int length, boolean tracked) {
        return tracked ? buffer.readSlice(length).retain() : buffer.readRetainedSlice(length);
    }

    /** Whether the leak detector tracks {@code buffer}: its allocator wrapped it in a leak-aware buffer. */
    private static boolean leakTracked(ByteBuf buffer) {
        return buffer.getClass().getSimpleName().contains("LeakAware");
    }

    @Override
    public void writeComplete() {
        if (ended) {
            lifecycle.closeStreamLocal(stream, promise);
        }
    }

    /**
     * The stream's error, or its reset or close, from the flow controller: the body is {@linkplain #discard discarded}
     * (its size stays: it was counted) and the stream reset, if it is not already.
     */
    @Override
    public void error(ChannelHandlerContext ctx, Throwable cause) {
        try {
            discard(cause);
        } finally {
            lifecycle.onError(ctx, true, cause);
        }
    }

    /** Releases the chunk and the input, and fails the promise with {@code cause}. */
    void discard(Throwable cause) {
        if (chunk != null) {
            chunk.release();
            chunk = null;
        }
        releaseHeaders();
        try {
            closeInput();
        } finally {
            promise.tryFailure(cause);
        }
    }

    private void closeInput() {
        ChunkedInput<ByteBuf> done = input;
        input = null;
        if (done != null) {
            try {
                done.close();
            } catch (Exception e) {
                throw new EncoderException("the body of stream " + stream.id() + " failed to close", e);
            }
        }
    }

    /** A body is written whole, on its own: nothing is merged into it. */
    @Override
    public boolean merge(ChannelHandlerContext ctx, Http2RemoteFlowController.FlowControlled next) {
        return false;
    }
}
