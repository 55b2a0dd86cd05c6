package io.hexstream.codec.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.testing.Measurements;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.Test;

/**
 * Heap allocated by {@link HexModule} reading a {@code getBlobsV2}-shaped result with {@code readValue(byte[])}, by the
 * thread allocation counter after warm-up, against what the values themselves need: the decoded bytes and, for each
 * blob, the four 128 KiB segments Jackson's {@code TextBuffer} allocates for a 262,146-character string (see
 * {@code HexReader}). The tree path ({@code readTree}, then {@code treeToValue}) is measured beside: it makes a
 * {@code String} per value on top.
 */
class HexModuleReadAllocationTest {
    public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    private static final TypeReference<List<BlobAndProofV2>> RESULT = new TypeReference<>() {};
    private static final int BLOBS = 16;
    private static final int PROOFS = 128;
    private static final int SEGMENT = 64 * 1024 * Character.BYTES;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aResultAllocatesTheDecodedBytesAndJacksonsSegments() throws IOException {
        Random random = new Random(23);
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < BLOBS; i++) {
            byte[] blob = new byte[131_072];
            random.nextBytes(blob);
            json.append(i == 0 ? "" : ",")
                    .append("{\"blob\":\"0x")
                    .append(HexFormat.of().formatHex(blob))
                    .append("\",\"proofs\":[");
            for (int p = 0; p < PROOFS; p++) {
                byte[] proof = new byte[48];
                random.nextBytes(proof);
                json.append(p == 0 ? "" : ",")
                        .append("\"0x")
                        .append(HexFormat.of().formatHex(proof))
                        .append('"');
            }
            json.append("]}");
        }
        byte[] body = json.append(']').toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ObjectMapper mapper = new ObjectMapper().registerModule(new HexModule());

        long streamBytes = Long.MAX_VALUE;
        long treeBytes = Long.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            List<BlobAndProofV2> result = mapper.readValue(body, RESULT);
            streamBytes = Math.min(streamBytes, THREADS.getCurrentThreadAllocatedBytes() - before);
            assertEquals(BLOBS, result.size());

            before = THREADS.getCurrentThreadAllocatedBytes();
            result = mapper.treeToValue(mapper.readTree(body), mapper.constructType(RESULT));
            treeBytes = Math.min(treeBytes, THREADS.getCurrentThreadAllocatedBytes() - before);
            assertEquals(BLOBS, result.size());
        }
        long decoded = BLOBS * (131_072 + 16 + PROOFS * (48 + 16));
        long segments = BLOBS * 4L * (SEGMENT + 16);
        long perValue = (streamBytes - decoded - segments) / (BLOBS * (1 + PROOFS));
        Measurements.report(
                "%d blobs: readValue(byte[]) allocated %d bytes (decoded %d, TextBuffer segments %d, "
                        + "%d per value beyond), the tree path %d%n",
                BLOBS, streamBytes, decoded, segments, perValue, treeBytes);
        long stream = streamBytes;
        // Beyond the bytes and segments: the Bytes48 wrappers, the records, their lists, Jackson's per-call state.
        assertTrue(
                stream <= decoded + segments + BLOBS * (1 + PROOFS) * 128L,
                () -> "readValue(byte[]) allocated " + stream + " bytes for " + decoded + " decoded");
        long tree = treeBytes;
        // The tree holds each blob as a String (262,146 Latin-1 bytes at least) that the stream never makes.
        assertTrue(tree - stream >= BLOBS * 262_146L, () -> "readValue " + stream + " bytes, tree " + tree);
    }
}
