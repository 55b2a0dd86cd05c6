package io.hexstream.server.ssz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.VersionedHash;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code GetBlobsRequest} bodies, well formed and not, decoded strictly (EIP-8178 draft, "Blobs"). */
class GetBlobsRequestDecoderTest {
    private static final String A = "01" + "aa".repeat(31);
    private static final String B = "01" + "bb".repeat(31);

    @Test
    void anEmptyListIsTheOffsetAlone() throws SszException {
        assertEquals(List.of(), decode("04000000", 128));
    }

    @Test
    void hashesFollowTheOffsetInOrder() throws SszException {
        assertEquals(List.of(hash(A), hash(B)), decode("04000000" + A + B, 128));
    }

    @Test
    void theBodysIndicesAreLeftAsTheyWere() throws SszException {
        ByteBuf body = Unpooled.wrappedBuffer(HexDecoder.decode("0x" + "ffff" + "04000000" + A));
        try {
            body.skipBytes(2);
            assertEquals(List.of(hash(A)), List.of(GetBlobsRequestDecoder.decode(body, 128)));
            assertEquals(2, body.readerIndex());
        } finally {
            body.release();
        }
    }

    @Test
    void malformedBodiesAre400WithTheFault() {
        assertRefused(HttpResponseStatus.BAD_REQUEST,
                "malformed GetBlobsRequest: 3 bytes, shorter than the 4-byte offset of blob_versioned_hashes", "040000");
        assertRefused(HttpResponseStatus.BAD_REQUEST, "malformed GetBlobsRequest: offset of blob_versioned_hashes is 8, must be 4",
                "08000000" + A);
        assertRefused(HttpResponseStatus.BAD_REQUEST,
                "malformed GetBlobsRequest: offset of blob_versioned_hashes is 4294967295, must be 4", "ffffffff");
        assertRefused(HttpResponseStatus.BAD_REQUEST,
                "malformed GetBlobsRequest: blob_versioned_hashes is 33 bytes, not a multiple of 32", "04000000" + A + "00");
        assertRefused(HttpResponseStatus.BAD_REQUEST,
                "malformed GetBlobsRequest: blob_versioned_hashes is 31 bytes, not a multiple of 32", "04000000" + A.substring(2));
    }

    @Test
    void moreHashesThanTheLimitAre413() {
        assertRefused(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "GetBlobsRequest: 129 versioned hashes, at most 128",
                "04000000" + A.repeat(129));
        assertRefused(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "GetBlobsRequest: 3 versioned hashes, at most 2",
                "04000000" + A.repeat(3), 2);
    }

    @Test
    void theLargestBodyIs4100Bytes() throws SszException {
        assertEquals(4_100, GetBlobsRequestDecoder.MAX_BODY_BYTES);
        assertEquals(128, decode("04000000" + A.repeat(128), 128).size());
    }

    private static void assertRefused(HttpResponseStatus status, String message, String hex) {
        assertRefused(status, message, hex, 128);
    }

    private static void assertRefused(HttpResponseStatus status, String message, String hex, int max) {
        SszException e = assertThrows(SszException.class, () -> decode(hex, max));
        assertEquals(status, e.status());
        assertEquals(message, e.getMessage());
    }

    private static List<VersionedHash> decode(String hex, int max) throws SszException {
        ByteBuf body = Unpooled.wrappedBuffer(HexDecoder.decode("0x" + hex));
        try {
            return List.of(GetBlobsRequestDecoder.decode(body, max));
        } finally {
            body.release();
        }
    }

    private static VersionedHash hash(String hex) {
        return VersionedHash.decode("0x" + hex);
    }
}
