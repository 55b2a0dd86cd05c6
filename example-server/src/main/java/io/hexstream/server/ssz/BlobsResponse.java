package io.hexstream.server.ssz;

import io.hexstream.client.CellIndices;
import io.hexstream.codec.body.StreamedBody;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.GetBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;

/**
 * The body of a blob route's {@code 200}: {@code application/octet-stream} of exact length, {@code BlobsVNResponse} as
 * {@link BlobsLayout} gives it, produced by {@link BlobsResponseInput} as the transport drains. It references the
 * pool's arrays (never modified once in an entry) and holds no buffer: it is reference-counted only to travel the line
 * of replies as every reply does.
 */
public final class BlobsResponse extends AbstractReferenceCounted implements StreamedBody {
    private final BlobsLayout layout;
    private final BlobEntry[] entries;
    private final long length;

    /**
     * @param entries one per hash asked for, {@code null} where the version cannot serve it (V2: none)
     * @param cells V4's {@code indices_bitarray}, else {@code null}
     */
    public BlobsResponse(GetBlobs.Version version, BlobEntry[] entries, CellIndices cells) {
        this.layout = new BlobsLayout(version, cells);
        this.entries = entries;
        this.length = layout.bodyBytes(entries);
    }

    @Override
    public CharSequence contentType() {
        return HttpHeaderValues.APPLICATION_OCTET_STREAM;
    }

    /** The body's exact length in bytes ({@code Content-Length}). */
    @Override
    public long contentLength() {
        return length;
    }

    /** The body in pooled direct chunks; this response's reference is released (the input holds the entries). */
    @Override
    public ChunkedInput<ByteBuf> bodyInput(int chunkSize) {
        try {
            return new BlobsResponseInput(layout, entries, length, chunkSize);
        } finally {
            release();
        }
    }

    /** Nothing to free: the entries are the pool's arrays, held by reference. */
    @Override
    protected void deallocate() {}

    @Override
    public BlobsResponse touch(Object hint) {
        return this;
    }
}
