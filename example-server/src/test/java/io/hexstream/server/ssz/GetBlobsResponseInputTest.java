package io.hexstream.server.ssz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.GetBlobs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpVersion;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The response containers' bytes against hand-computed vectors (EIP-8178 draft, "Container
 * Definitions"): every offset written out in hex as the layout gives it, at chunk sizes that split the
 * blobs, the proofs and (131,086 for V2) a 4-byte offset across two chunks.
 */
class GetBlobsResponseInputTest {
    private static final int[] CHUNK_SIZES = {1024, 1027, 131_086, 256 * 1024};

    @Test
    void emptyListsAreTheContainersOffsetAlone() {
        for (SszRoute route : SszRoute.values()) {
            assertBody("04000000", route.version(), new BlobEntry[0]);
        }
    }

    @Test
    void v1IsTheOffsetThenEachBlobAndProof() {
        BlobEntry a = entry(1);
        BlobEntry b = entry(2);
        byte[] expected = concat("04000000", a.blob(), a.blobProof(), b.blob(), b.blobProof());
        assertEquals(4 + 2 * 131_120, expected.length);
        assertBody(expected, GetBlobs.Version.V1, new BlobEntry[] {a, b});
    }

    @Test
    void v2HasAnOffsetPerElementAndAProofsOffsetInEach() {
        BlobEntry a = entry(3);
        BlobEntry b = entry(4);
        // list offsets 8 and 8 + 137,220 = 137,228 (0x2180c); proofs at 131,076 (0x20004) in each element
        byte[] expected = concat("04000000", "08000000", "0c180200",
                a.blob(), "04000200", a.cellProofs(), b.blob(), "04000200", b.cellProofs());
        assertEquals(4 + 2 * 137_224, expected.length);
        assertBody(expected, GetBlobs.Version.V2, new BlobEntry[] {a, b});
    }

    @Test
    void v3GivesAMissingBlobAnEmptyListAndAPresentOneAListOfOne() {
        BlobEntry a = entry(5);
        BlobEntry c = entry(6);
        // offsets 12, 12 + 137,224 = 137,236 (0x21814), and 137,236 again: the missing one is 0 bytes
        byte[] expected = concat("04000000", "0c000000", "14180200", "14180200",
                "04000000", a.blob(), "04000200", a.cellProofs(),
                "04000000", c.blob(), "04000200", c.cellProofs());
        assertEquals(4 + 3 * 4 + 2 * 137_224, expected.length);
        assertBody(expected, GetBlobs.Version.V3, new BlobEntry[] {a, null, c});
    }

    @Test
    void v3WithEveryBlobMissingIsOffsetsOnly() {
        assertBody("04000000" + "08000000" + "08000000", GetBlobs.Version.V3, new BlobEntry[] {null, null});
    }

    @Test
    void v1AndV2RefuseAMissingEntryOrOneWithoutItsProofs() {
        BlobEntry cellProofsOnly = new BlobEntry(entry(7).blob(), entry(7).commitment(), null, entry(7).cellProofs());
        assertThrows(IllegalArgumentException.class, () -> response(GetBlobs.Version.V2, new BlobEntry[] {null}));
        assertThrows(IllegalArgumentException.class, () -> response(GetBlobs.Version.V1, new BlobEntry[] {cellProofsOnly}));
    }

    @Test
    void closedInputDropsItsEntriesAndProducesNothing() {
        GetBlobsResponse response = response(GetBlobs.Version.V2, new BlobEntry[] {entry(8)});
        GetBlobsResponseInput input = new GetBlobsResponseInput(response, 1024);
        assertTrue(response.release());
        input.close();
        assertThrows(IllegalStateException.class, () -> input.readChunk(ByteBufAllocator.DEFAULT));
    }

    private static void assertBody(String hex, GetBlobs.Version version, BlobEntry[] entries) {
        assertBody(HexDecoder.decode("0x" + hex), version, entries);
    }

    private static void assertBody(byte[] expected, GetBlobs.Version version, BlobEntry[] entries) {
        for (int chunkSize : CHUNK_SIZES) {
            GetBlobsResponse response = response(version, entries);
            assertEquals(expected.length, response.contentLength());
            GetBlobsResponseInput input = new GetBlobsResponseInput(response, chunkSize);
            assertTrue(response.release());
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            ByteBuf chunk;
            while ((chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null) {
                try {
                    assertTrue(chunk.isDirect());
                    assertTrue(chunk.readableBytes() > 0 && chunk.readableBytes() <= chunkSize, chunk.readableBytes() + " bytes");
                    byte[] bytes = new byte[chunk.readableBytes()];
                    chunk.readBytes(bytes);
                    body.writeBytes(bytes);
                    assertEquals(body.size(), input.progress());
                } finally {
                    chunk.release();
                }
            }
            assertTrue(input.isEndOfInput());
            assertNull(input.readChunk(ByteBufAllocator.DEFAULT));
            input.close();
            assertArrayEquals(expected, body.toByteArray(), version + " at chunks of " + chunkSize);
        }
    }

    private static GetBlobsResponse response(GetBlobs.Version version, BlobEntry[] entries) {
        return new GetBlobsResponse(HttpVersion.HTTP_1_1, true, version, entries);
    }

    /** An entry whose every byte depends on {@code seed} and its index: a misplaced byte shows. */
    static BlobEntry entry(int seed) {
        return new BlobEntry(pattern(131_072, seed), pattern(48, seed + 100), pattern(48, seed + 200),
                pattern(6_144, seed + 300));
    }

    private static byte[] pattern(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed * 7 + (i >>> 8));
        }
        return bytes;
    }

    /** Hex strings (little-endian offsets as written) and byte arrays, back to back. */
    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof String hex ? HexDecoder.decode("0x" + hex) : (byte[]) part);
        }
        byte[] bytes = out.toByteArray();
        return Arrays.copyOf(bytes, bytes.length);
    }
}
