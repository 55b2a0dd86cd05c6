package io.hexstream.server.ssz;

import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.VersionedHash;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Decodes {@code GetBlobsRequest} (EIP-8178 draft, "Blobs"), strictly:
 *
 * <pre>
 * class GetBlobsRequest(Container):
 *     blob_versioned_hashes: List[Bytes32, MAX_BLOB_HASHES_REQUEST]   # 128
 * </pre>
 *
 * <p>Bytes: the offset of {@code blob_versioned_hashes}, a {@code uint32} little-endian that must be 4
 * (the container's fixed part is that offset alone), then the hashes, 32 bytes each, to the end of the
 * body. So a body is 4 + 32 × n bytes, n ≤ 128: at most {@link #MAX_BODY_BYTES}.
 */
public final class GetBlobsRequestDecoder {
    /** {@code MAX_BLOB_HASHES_REQUEST}: the list's limit. */
    public static final int MAX_BLOB_HASHES_REQUEST = 128;
    /** The fixed part: one 4-byte offset. */
    static final int OFFSET_SIZE = 4;
    /** The largest valid body, 4,100 bytes. */
    public static final int MAX_BODY_BYTES = OFFSET_SIZE + MAX_BLOB_HASHES_REQUEST * BlobSizes.VERSIONED_HASH_SIZE;

    private GetBlobsRequestDecoder() {}

    /**
     * The versioned hashes of {@code body} (its readable bytes; indices unchanged), in order.
     *
     * @param maxHashes the most hashes taken, at most {@link #MAX_BLOB_HASHES_REQUEST}
     * @throws SszException {@code 400} for a body shorter than 4 bytes, an offset other than 4, or a list
     *     not a whole number of 32-byte hashes (trailing bytes); {@code 413} for more than {@code maxHashes}
     */
    public static VersionedHash[] decode(ByteBuf body, int maxHashes) throws SszException {
        int size = body.readableBytes();
        if (size < OFFSET_SIZE) {
            throw malformed(size + " bytes, shorter than the 4-byte offset of blob_versioned_hashes");
        }
        long offset = body.getUnsignedIntLE(body.readerIndex());
        if (offset != OFFSET_SIZE) {
            throw malformed("offset of blob_versioned_hashes is " + offset + ", must be 4");
        }
        int listBytes = size - OFFSET_SIZE;
        if (listBytes % BlobSizes.VERSIONED_HASH_SIZE != 0) {
            throw malformed("blob_versioned_hashes is " + listBytes + " bytes, not a multiple of 32");
        }
        int count = listBytes / BlobSizes.VERSIONED_HASH_SIZE;
        if (count > maxHashes) {
            throw new SszException(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "GetBlobsRequest: " + count + " versioned hashes, at most " + maxHashes);
        }
        VersionedHash[] hashes = new VersionedHash[count];
        for (int i = 0; i < count; i++) {
            hashes[i] = VersionedHash.read(body, body.readerIndex() + OFFSET_SIZE + i * BlobSizes.VERSIONED_HASH_SIZE);
        }
        return hashes;
    }

    private static SszException malformed(String why) {
        return new SszException(HttpResponseStatus.BAD_REQUEST, "malformed GetBlobsRequest: " + why);
    }
}
