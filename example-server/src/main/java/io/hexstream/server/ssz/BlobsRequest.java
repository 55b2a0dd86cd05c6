package io.hexstream.server.ssz;

import io.hexstream.client.BlobSizes;
import io.hexstream.client.CellIndices;
import io.hexstream.client.VersionedHash;
import io.netty.buffer.ByteBuf;

/**
 * A decoded {@code BlobsV1Request} to {@code BlobsV4Request} (execution-apis #793, {@code refactor-ssz.md},
 * "{@code POST /blobs/v1}" … "{@code /v4}"), decoded strictly:
 *
 * <pre>
 * BlobsV1Request, BlobsV2Request (and /v3) {versioned_hashes: List[VersionedHash, 128]}
 *     offset of versioned_hashes = 4 ‖ n × hash 32                       = 4 + 32 n bytes
 * BlobsV4Request {versioned_hashes: List[VersionedHash, 128], indices_bitarray: Bitvector[128]}
 *     offset of versioned_hashes = 20 ‖ indices_bitarray 16 ‖ n × hash 32 = 20 + 32 n bytes
 * </pre>
 *
 * The offset is a {@code uint32} little-endian and must equal the container's fixed part; the list runs to the end of
 * the body, a whole number of hashes. Cell {@code i} of {@code indices_bitarray} is bit {@code i % 8} (least
 * significant first) of byte {@code i / 8}.
 *
 * @param hashes in request order
 * @param cells V4's selected cells, else {@code null}
 */
public record BlobsRequest(VersionedHash[] hashes, CellIndices cells) {
    /** {@code MAX_BLOBS_REQUEST}: the list's limit. */
    public static final int MAX_BLOBS_REQUEST = 128;
    /** {@code versioned_hashes}' offset. */
    static final int OFFSET_SIZE = 4;
    /** V1 to V3's fixed part: the offset. */
    static final int FIXED_V1 = OFFSET_SIZE;
    /** V4's fixed part: the offset and {@code indices_bitarray}. */
    static final int FIXED_V4 = OFFSET_SIZE + CellIndices.BITARRAY_SIZE;

    /**
     * The request in {@code body} (its readable bytes; indices unchanged).
     *
     * @param fixed the container's fixed part: {@link #FIXED_V1}, or {@link #FIXED_V4} for a V4 request
     * @param maxHashes the most hashes taken, at most {@link #MAX_BLOBS_REQUEST}
     * @throws SszException {@code 400 ssz-decode-error} for a body shorter than its fixed part, an offset other than
     *     it, or a list not a whole number of hashes; {@code 413 request-too-large} for more than {@code maxHashes}
     *     hashes
     */
    public static BlobsRequest decode(ByteBuf body, int fixed, int maxHashes) throws SszException {
        int size = body.readableBytes();
        int start = body.readerIndex();
        if (size < fixed
                || body.getUnsignedIntLE(start) != fixed
                || (size - fixed) % BlobSizes.VERSIONED_HASH_SIZE != 0) {
            throw new SszException(Problem.SSZ_DECODE_ERROR);
        }
        int count = (size - fixed) / BlobSizes.VERSIONED_HASH_SIZE;
        if (count > maxHashes) {
            throw new SszException(Problem.requestTooLarge(count + " versioned hashes, at most " + maxHashes));
        }
        CellIndices cells = null;
        if (fixed == FIXED_V4) {
            byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
            body.getBytes(start + OFFSET_SIZE, bits);
            cells = CellIndices.of(bits);
        }
        VersionedHash[] hashes = new VersionedHash[count];
        for (int i = 0; i < count; i++) {
            hashes[i] = VersionedHash.read(body, start + fixed + i * BlobSizes.VERSIONED_HASH_SIZE);
        }
        return new BlobsRequest(hashes, cells);
    }
}
