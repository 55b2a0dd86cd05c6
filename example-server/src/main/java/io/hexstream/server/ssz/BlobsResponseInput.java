package io.hexstream.server.ssz;

import io.hexstream.server.blob.BlobEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * The body of a {@link BlobsResponse}, byte for byte as its {@link BlobsLayout} gives it, in pooled direct chunks of at
 * most {@code chunkSize} bytes produced only as the channel drains them ({@code StreamedResponseEncoder}): offsets
 * written as they come, blobs, cells and proofs copied from the pool's arrays straight into the chunk. A chunk resumes
 * the layout where the last one stopped: the header, then entry after entry, a part cut anywhere (even inside an
 * offset). Holds no buffer between chunks, so {@link #close()} only drops the references.
 */
final class BlobsResponseInput implements ChunkedInput<ByteBuf> {
    /** The smallest chunk: the largest header, 4 + 128 offsets, fits in one. */
    static final int MIN_CHUNK_SIZE = 1024;

    /** Writes the parts of one unit (the header, or an entry) that fall in the current chunk. */
    private static final class ChunkWriter implements SszSink {
        private ByteBuf chunk;
        private int room;
        /** The unit's bytes written before this chunk, and its bytes laid out so far in this pass. */
        private long skip;

        private long position;

        void begin(ByteBuf chunk, int room, long skip) {
            this.chunk = chunk;
            this.room = room;
            this.skip = skip;
            this.position = 0;
        }

        /** The unit's bytes written so far, this chunk's included. */
        long written() {
            return skip;
        }

        /** Whether the whole unit is written. */
        boolean done() {
            return skip == position;
        }

        /**
         * Lays out a part of {@code length} bytes: how much of it comes before the chunk's start, or -1 if none of it
         * is written now.
         */
        private int start(int length) {
            long from = position;
            position += length;
            return position <= skip || room == 0 ? -1 : (int) (skip - from);
        }

        private void wrote(int n) {
            skip += n;
            room -= n;
        }

        @Override
        public void uint8(int value) {
            if (start(1) >= 0) {
                chunk.writeByte(value);
                wrote(1);
            }
        }

        @Override
        public void offset(int value) {
            int from = start(BlobsLayout.OFFSET);
            if (from == 0 && room >= BlobsLayout.OFFSET) {
                chunk.writeIntLE(value);
                wrote(BlobsLayout.OFFSET);
                return;
            }
            for (int b = from; b >= 0 && b < BlobsLayout.OFFSET && room > 0; b++) {
                chunk.writeByte(value >>> 8 * b);
                wrote(1);
            }
        }

        @Override
        public void bytes(byte[] array, int from, int length) {
            int skipped = start(length);
            if (skipped >= 0) {
                int n = Math.min(length - skipped, room);
                chunk.writeBytes(array, from + skipped, n);
                wrote(n);
            }
        }

        @Override
        public void zeros(int length) {
            int skipped = start(length);
            if (skipped >= 0) {
                int n = Math.min(length - skipped, room);
                chunk.writeZero(n);
                wrote(n);
            }
        }
    }

    private final long length;
    private final int chunkSize;
    private final ChunkWriter writer = new ChunkWriter();
    /** The layout and entries; {@code null} once closed. */
    private BlobsLayout layout;

    private BlobEntry[] entries;
    private long progress;
    /** The unit being written (-1: the header; then each entry's index) and its bytes already written. */
    private int unit = -1;

    private long unitWritten;

    /** @param length the body's length, as {@code layout} counts it for {@code entries} */
    BlobsResponseInput(BlobsLayout layout, BlobEntry[] entries, long length, int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + MIN_CHUNK_SIZE);
        }
        this.layout = layout;
        this.entries = entries;
        this.length = length;
        this.chunkSize = chunkSize;
    }

    @Override
    public boolean isEndOfInput() {
        return progress == length;
    }

    @Override
    public void close() {
        layout = null;
        entries = null;
    }

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) {
        if (isEndOfInput()) {
            return null;
        }
        if (entries == null) {
            throw new IllegalStateException("closed");
        }
        int size = (int) Math.min(chunkSize, length - progress);
        ByteBuf chunk = allocator.directBuffer(size);
        try {
            while (chunk.writerIndex() < size && unit < entries.length) {
                writer.begin(chunk, size - chunk.writerIndex(), unitWritten);
                if (unit < 0) {
                    layout.header(entries, writer);
                } else {
                    layout.entry(entries[unit], writer);
                }
                unitWritten = writer.written();
                if (writer.done()) {
                    unit++;
                    unitWritten = 0;
                }
            }
            if (chunk.writerIndex() != size) {
                throw new IllegalStateException("the layout gave " + chunk.writerIndex() + " bytes, not " + size);
            }
        } catch (RuntimeException e) {
            chunk.release();
            throw e;
        }
        progress += size;
        return chunk;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public long progress() {
        return progress;
    }
}
