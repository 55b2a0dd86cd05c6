package io.hexstream.server.ssz;

import io.hexstream.server.blob.BlobEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;

/**
 * The body of a {@link GetBlobsResponse}, byte for byte as its Javadoc lays out, in pooled direct chunks
 * of at most {@code chunkSize} bytes produced only as the channel drains them ({@code ChunkedWriteHandler}):
 * the offsets written as they come, the blobs and proofs copied from the pool's arrays straight into the
 * chunk. (Heap slices would be copied to direct memory by the transport anyway, one copy either way; a
 * direct chunk keeps what a stalled reader pins to the chunks in the channel's outbound buffer.) Holds no
 * buffer between chunks, so {@link #close()} only drops the references.
 */
public final class GetBlobsResponseInput implements ChunkedInput<ByteBuf> {
    /** The smallest chunk: the largest header, 4 + 128 offsets, fits in one. */
    public static final int MIN_CHUNK_SIZE = 1024;

    private static final int LIST_OFFSET = 0;
    private static final int BLOB = 1;
    private static final int BLOB_PROOF = 2;
    private static final int PROOFS_OFFSET = 3;
    private static final int CELL_PROOFS = 4;
    /** The parts of one present element, per version. */
    private static final int[] V1_PARTS = {BLOB, BLOB_PROOF};
    private static final int[] V2_PARTS = {BLOB, PROOFS_OFFSET, CELL_PROOFS};
    private static final int[] V3_PARTS = {LIST_OFFSET, BLOB, PROOFS_OFFSET, CELL_PROOFS};

    private final int[] parts;
    private final long length;
    private final int chunkSize;
    /** The layout; {@code null} once closed, as {@link #entries}. */
    private GetBlobsResponse response;
    private BlobEntry[] entries;
    private long progress;
    /** The element being written, its part, and the bytes of that part already written. */
    private int element;
    private int part;
    private int partWritten;

    /** The body of {@code response}; takes none of its references (the caller keeps or releases its own). */
    public GetBlobsResponseInput(GetBlobsResponse response, int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " < " + MIN_CHUNK_SIZE);
        }
        this.response = response;
        this.parts = switch (response.getBlobsVersion()) {
            case V1 -> V1_PARTS;
            case V2 -> V2_PARTS;
            case V3 -> V3_PARTS;
            case V4 -> throw new AssertionError("a GetBlobsResponse is never V4");
        };
        this.length = response.contentLength();
        this.chunkSize = chunkSize;
        this.entries = response.entries();
    }

    @Override
    public boolean isEndOfInput() {
        return progress == length;
    }

    @Override
    public void close() {
        response = null;
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
            if (progress == 0) {
                writeHeader(chunk);
            }
            while (element < entries.length && writePart(chunk, size)) {
                // each call writes what fits of one part
            }
        } catch (RuntimeException e) {
            chunk.release();
            throw e;
        }
        progress += chunk.readableBytes();
        return chunk;
    }

    /** The container's offset, then the list's offset table (none for V1), as the response lays them out. */
    private void writeHeader(ByteBuf chunk) {
        chunk.writeIntLE(GetBlobsResponse.OFFSET);
        if (response.offsetBytes() == 0) {
            return;
        }
        int offset = response.offsetBytes() * entries.length;
        for (BlobEntry entry : entries) {
            chunk.writeIntLE(offset);
            offset += response.elementBytes(entry);
        }
    }

    /**
     * Writes what fits in {@code chunk} (of {@code size} bytes) of the current part and moves on past
     * it once whole; {@code false} if the chunk is full or has no room for a whole offset.
     */
    private boolean writePart(ByteBuf chunk, int size) {
        BlobEntry entry = entries[element];
        if (entry == null || part == parts.length) {
            element++;
            part = 0;
            return true;
        }
        int room = size - chunk.writerIndex();
        int kind = parts[part];
        if (kind == LIST_OFFSET || kind == PROOFS_OFFSET) {
            if (room < GetBlobsResponse.OFFSET) {
                return false;
            }
            chunk.writeIntLE(kind == LIST_OFFSET ? GetBlobsResponse.OFFSET : GetBlobsResponse.PROOFS_OFFSET);
            part++;
            return true;
        }
        byte[] bytes = kind == BLOB ? entry.blob() : kind == BLOB_PROOF ? entry.blobProof() : entry.cellProofs();
        int n = Math.min(bytes.length - partWritten, room);
        chunk.writeBytes(bytes, partWritten, n);
        partWritten += n;
        if (partWritten < bytes.length) {
            return false;
        }
        partWritten = 0;
        part++;
        return true;
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
