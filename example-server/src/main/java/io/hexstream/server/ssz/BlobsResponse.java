package io.hexstream.server.ssz;

import io.hexstream.client.CellIndices;
import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.GetBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;

/**
 * The {@code 200} response of a blob route: {@code Content-Type: application/octet-stream}, an exact
 * {@code Content-Length}, the body {@code BlobsVNResponse} as {@link BlobsLayout} gives it, produced by
 * {@link BlobsResponseInput} and sent by {@link io.hexstream.codec.http.StreamedResponseEncoder}. It references the
 * pool's arrays (never modified once in an entry) and holds no buffer: it is reference-counted only to travel the
 * response line as every response does.
 */
public final class BlobsResponse extends AbstractReferenceCounted implements StreamedResponse {
    private final HttpVersion httpVersion;
    private final boolean keepAlive;
    private final BlobsLayout layout;
    private final BlobEntry[] entries;
    private final long length;

    /**
     * @param entries one per hash asked for, {@code null} where the version cannot serve it (V2: none)
     * @param cells V4's {@code indices_bitarray}, else {@code null}
     */
    public BlobsResponse(
            HttpVersion httpVersion,
            boolean keepAlive,
            GetBlobs.Version version,
            BlobEntry[] entries,
            CellIndices cells) {
        this.httpVersion = httpVersion;
        this.keepAlive = keepAlive;
        this.layout = new BlobsLayout(version, cells);
        this.entries = entries;
        this.length = layout.bodyBytes(entries);
    }

    @Override
    public HttpVersion version() {
        return httpVersion;
    }

    @Override
    public HttpResponseStatus status() {
        return HttpResponseStatus.OK;
    }

    @Override
    public boolean keepAlive() {
        return keepAlive;
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
