package io.hexstream.codec.json;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Produces a {@link JsonBody} as a sequence of direct {@link ByteBuf}s of at most {@code chunkSize} bytes each, from
 * the channel's allocator, for whoever drains it as the socket does ({@code StreamedResponseEncoder}, Netty's
 * {@code ChunkedWriteHandler}): a chunk is made only when the channel is writable, so at most the high water mark plus
 * one chunk is outstanding per connection. A chunk may end a byte short of {@code chunkSize} where a hex digit pair
 * would not fit whole.
 *
 * <p>Owns one reference to the body and releases it in {@link #close()}, which is idempotent: whoever drains it calls
 * it at the end, on write failure and on disconnect. Every chunk returned is the caller's to release. Not thread-safe:
 * one event loop reads it.
 */
public final class JsonBodyInput implements ChunkedInput<ByteBuf> {
    /** Default chunk size: 256 KiB, within what Netty 4.2's allocators pool (≤ 1 MiB). */
    public static final int DEFAULT_CHUNK_SIZE = 256 * 1024;

    /** Smallest chunk size accepted: room for any hex digit pair at the start of a chunk. */
    public static final int MIN_CHUNK_SIZE = 16;

    private final JsonBody body;
    private final List<Segment> segments;
    private final int chunkSize;
    private int segment;
    private long segmentPosition;
    private long progress;
    private boolean closed;

    /** An input over {@code body} with {@link #DEFAULT_CHUNK_SIZE}; takes ownership of one reference. */
    public JsonBodyInput(JsonBody body) {
        this(body, DEFAULT_CHUNK_SIZE);
    }

    /**
     * An input over {@code body} that takes ownership of one reference to it.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is below {@link #MIN_CHUNK_SIZE}; the body is then released
     */
    public JsonBodyInput(JsonBody body, int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE) {
            body.release();
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + MIN_CHUNK_SIZE);
        }
        this.body = body;
        this.segments = body.segments();
        this.chunkSize = chunkSize;
    }

    @Override
    public boolean isEndOfInput() {
        return closed || progress == body.length();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            body.release();
        }
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) {
        return readChunk(ctx.alloc());
    }

    /**
     * The next chunk, direct, of at most the chunk size; {@code null} at the end. A value given
     * {@linkplain JsonBodyBuilder#encodedHex(ByteBuf, boolean) already encoded} comes as retained slices of its buffer,
     * each a chunk of its own (the chunks before and after it end where it starts and start where it ends). Segments
     * write straight into the chunk's memory through one NIO view of it: literals as bulk puts, digits as
     * {@link io.hexstream.codec.Hex#encode(byte[], int, int, ByteBuffer, int, boolean)} writes them (SIMD lanes stored
     * in place where the JVM allows, else the portable kernel through an L1 scratch).
     *
     * @throws IllegalStateException if {@code allocator}'s direct buffer is not one region of memory
     */
    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) {
        if (isEndOfInput()) {
            return null;
        }
        Segment current = segments.get(segment);
        if (current.bytesBeforeSlice(segmentPosition) == 0) {
            // Digits already encoded: handed on as they lie, a retained slice, never copied, as a chunk of its
            // own. Gathering them into CompositeByteBufs measured more heap for no fewer syscalls: the encoder
            // writes these without a promise each and flushes several at once (docs/decisions.md).
            ByteBuf slice = current.slice(segmentPosition, chunkSize);
            advance(slice.readableBytes());
            return slice;
        }
        int size = (int) Math.min(chunkSize, bytesBeforeSlice());
        ByteBuf chunk = allocator.directBuffer(size, size);
        try {
            if (chunk.nioBufferCount() != 1) {
                throw new IllegalStateException(
                        allocator + " gave a direct buffer of " + chunk.nioBufferCount() + " regions");
            }
            // The chunk's internal view: no object per chunk where the allocator keeps one per buffer
            // (the pooled allocator does; the adaptive one makes one per call, as nioBuffer would).
            ByteBuffer memory = chunk.internalNioBuffer(0, size);
            return chunk.writerIndex(fill(memory, memory.position(), size));
        } catch (RuntimeException | Error e) {
            chunk.release();
            throw e;
        }
    }

    /** Bytes to produce from here before the next slice region or the end, counted up to the chunk size. */
    private long bytesBeforeSlice() {
        long run = 0;
        long position = segmentPosition;
        for (int s = segment; s < segments.size() && run < chunkSize; s++, position = 0) {
            long n = segments.get(s).bytesBeforeSlice(position);
            run += n;
            if (position + n < segments.get(s).length()) {
                break;
            }
        }
        return run;
    }

    /** Renders the next bytes of the body into {@code out[base, base + room)}; returns how many. */
    private int fill(ByteBuffer out, int base, int room) {
        int filled = 0;
        while (filled < room && segment < segments.size()) {
            Segment current = segments.get(segment);
            int n = current.write(segmentPosition, out, base + filled, room - filled);
            filled += n;
            if (!advance(n) && n == 0) {
                break;
            }
        }
        return filled;
    }

    /** Moves {@code n} bytes on in the current segment; returns whether that ended it. */
    private boolean advance(int n) {
        segmentPosition += n;
        progress += n;
        if (segmentPosition == segments.get(segment).length()) {
            segment++;
            segmentPosition = 0;
            return true;
        }
        return false;
    }

    @Override
    public long length() {
        return body.length();
    }

    @Override
    public long progress() {
        return progress;
    }
}
