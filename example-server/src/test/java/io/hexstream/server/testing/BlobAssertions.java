package io.hexstream.server.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.hexstream.client.BlobSizes;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Byte-for-byte checks of served {@code BlobAndProofV1} and {@code BlobAndProofV2} objects. */
public final class BlobAssertions {
    private BlobAssertions() {}

    /** {@code {"blob", "proofs"}}: the blob and its 128 cell proofs, exactly those of {@code expected}. */
    public static void assertBlobAndProofV2(BlobEntry expected, JsonNode actual) {
        assertEquals(List.of("blob", "proofs"), fieldNames(actual));
        assertArrayEquals(expected.blob(), HexDecoder.decode(actual.get("blob").asText()));
        assertEquals(BlobSizes.CELLS_PER_EXT_BLOB, actual.get("proofs").size());
        for (int i = 0; i < BlobSizes.CELLS_PER_EXT_BLOB; i++) {
            byte[] proof = HexDecoder.decode(actual.get("proofs").get(i).asText(), BlobSizes.PROOF_SIZE);
            byte[] want =
                    Arrays.copyOfRange(expected.cellProofs(), i * BlobSizes.PROOF_SIZE, (i + 1) * BlobSizes.PROOF_SIZE);
            assertArrayEquals(want, proof, "cell proof " + i);
        }
    }

    /** {@code {"blob", "proof"}}: the blob and its blob proof, exactly those of {@code expected}. */
    public static void assertBlobAndProofV1(BlobEntry expected, JsonNode actual) {
        assertEquals(List.of("blob", "proof"), fieldNames(actual));
        assertArrayEquals(expected.blob(), HexDecoder.decode(actual.get("blob").asText()));
        assertArrayEquals(
                expected.blobProof(), HexDecoder.decode(actual.get("proof").asText(), BlobSizes.PROOF_SIZE));
    }

    public static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
