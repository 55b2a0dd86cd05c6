package io.hexstream.server.ssz;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.engine.GetBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.AbstractReferenceCounted;

/**
 * The {@code 200} response of a binary SSZ getBlobs (EIP-8178 draft, "Container Definitions"):
 * {@code Content-Type: application/octet-stream}, the body produced by {@link GetBlobsResponseInput} and
 * sent by {@link io.hexstream.codec.http.StreamedResponseEncoder}. It references the pool's arrays (never
 * modified once in an entry) and holds no buffer: it is reference-counted only to travel the response
 * line as every response does. The layout below is described once, here ({@link #offsetBytes()},
 * {@link #elementBytes}): the length and the input's offsets both come from it.
 * All integers are {@code uint32} little-endian offsets, counted from the start of the list (or container)
 * they belong to:
 *
 * <pre>
 * GetBlobsV1Response{blobs_and_proofs: List[BlobAndProofV1, 128]}
 *     4 (offset of the list) ‖ n × (blob 131,072 ‖ proof 48)                  = 4 + 131,120 n bytes
 * GetBlobsV2Response{blobs_and_proofs: List[BlobAndProofV2, 128]}
 *     4 ‖ n offsets (4 n + 137,220 i) ‖ n × BlobAndProofV2                    = 4 + 137,224 n bytes
 *     BlobAndProofV2 = blob 131,072 ‖ 131,076 (offset of proofs) ‖ 128 cell proofs × 48 = 137,220 bytes
 * GetBlobsV3Response{blobs_and_proofs: List[List[BlobAndProofV2, 1], 128]}
 *     4 ‖ n offsets (4 n + 137,224 × present before i) ‖ per hash: nothing if missing (an empty list),
 *     else 4 (offset of its one element) ‖ BlobAndProofV2                     = 4 + 4 n + 137,224 m bytes
 * </pre>
 *
 * (n hashes asked for, m of them present.) V1 and V2 are answered only when every hash is present
 * (else {@code 204}), so their entries are all non-null; V3's are {@code null} where missing.
 */
public final class GetBlobsResponse extends AbstractReferenceCounted implements StreamedResponse {
    /** A 4-byte SSZ offset. */
    static final int OFFSET = 4;
    /** {@code BlobAndProofV1}: blob and proof. */
    static final int BLOB_AND_PROOF_V1 = BlobSizes.BLOB_SIZE + BlobSizes.PROOF_SIZE;
    /** The offset of {@code proofs} inside a {@code BlobAndProofV2}: after the blob and that offset. */
    static final int PROOFS_OFFSET = BlobSizes.BLOB_SIZE + OFFSET;
    /** {@code BlobAndProofV2}: blob, offset of proofs, 128 cell proofs. */
    static final int BLOB_AND_PROOF_V2 = PROOFS_OFFSET + BlobSizes.CELL_PROOFS_SIZE;
    /** A present {@code List[BlobAndProofV2, 1]}: its element's offset, then the element. */
    static final int PRESENT_V3 = OFFSET + BLOB_AND_PROOF_V2;

    private final HttpVersion httpVersion;
    private final boolean keepAlive;
    private final GetBlobs.Version version;
    private final BlobEntry[] entries;
    private final long length;

    /**
     * @param entries one per hash asked for; for V1 and V2 none {@code null}
     * @throws IllegalArgumentException if a V1 or V2 entry is {@code null} or lacks its proofs, or for V4
     */
    public GetBlobsResponse(HttpVersion httpVersion, boolean keepAlive, GetBlobs.Version version, BlobEntry[] entries) {
        if (version == GetBlobs.Version.V4) {
            throw new IllegalArgumentException("the SSZ draft has no getBlobsV4 response");
        }
        this.httpVersion = httpVersion;
        this.keepAlive = keepAlive;
        this.version = version;
        this.entries = entries;
        long bytes = OFFSET + (long) offsetBytes() * entries.length;
        for (BlobEntry entry : entries) {
            bytes += elementBytes(entry);
            if (version != GetBlobs.Version.V3
                    && (entry == null || (version == GetBlobs.Version.V1 ? entry.blobProof() : entry.cellProofs()) == null)) {
                throw new IllegalArgumentException(version + " needs every entry with its proofs");
            }
        }
        this.length = bytes;
    }

    /**
     * The bytes per element of the list's offset table: none for V1 (its elements are of fixed size),
     * one 4-byte offset for V2 and V3.
     */
    int offsetBytes() {
        return version == GetBlobs.Version.V1 ? 0 : OFFSET;
    }

    /** The bytes of the list element of {@code entry} ({@code null}: missing, V3 only), its offset not counted. */
    int elementBytes(BlobEntry entry) {
        return switch (version) {
            case V1 -> BLOB_AND_PROOF_V1;
            case V2 -> BLOB_AND_PROOF_V2;
            case V3 -> entry == null ? 0 : PRESENT_V3;
            case V4 -> throw new AssertionError("a GetBlobsResponse is never V4");
        };
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

    /** The getBlobs version whose container this is. */
    public GetBlobs.Version getBlobsVersion() {
        return version;
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
            return new GetBlobsResponseInput(this, chunkSize);
        } finally {
            release();
        }
    }

    /** The entries, handed to the body's input. */
    BlobEntry[] entries() {
        return entries;
    }

    /** Nothing to free: the entries are the pool's arrays, held by reference. */
    @Override
    protected void deallocate() {}

    @Override
    public GetBlobsResponse touch(Object hint) {
        return this;
    }
}
