package io.hexstream.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The REST request of a getBlobs call (execution-apis #793, {@code refactor-ssz.md}, "{@code POST /blobs/v1}" …
 * "{@code /v4}"): its route, {@code /engine/v1/blobs/v1} to {@code /v4}, and its SSZ body, the offset ({@code uint32}
 * little-endian) of {@code versioned_hashes}, V4's {@code indices_bitarray}, then the hashes:
 *
 * <pre>
 * BlobsV1Request to BlobsV3Request  4 ‖ n × hash 32                          = 4 + 32 n bytes
 * BlobsV4Request                    20 ‖ indices_bitarray 16 ‖ n × hash 32   = 20 + 32 n bytes
 * </pre>
 */
final class SszGetBlobs {
    private SszGetBlobs() {}

    /** The route of {@code method}, below the endpoint's base path: {@code /engine/v1/blobs/v2}. */
    static String route(BlobsMethod method) {
        return "/engine/v1/blobs/" + method.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The body of {@code call}. */
    static byte[] requestBody(GetBlobsCall call) {
        int fixed = 4 + (call.cells() != null ? CellIndices.BITARRAY_SIZE : 0);
        ByteBuffer body = ByteBuffer.allocate(
                        fixed + BlobSizes.VERSIONED_HASH_SIZE * call.hashes().size())
                .order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(fixed);
        if (call.cells() != null) {
            body.put(call.cells());
        }
        call.hashes().forEach(hash -> body.put(hash.toBytes()));
        return body.array();
    }
}
