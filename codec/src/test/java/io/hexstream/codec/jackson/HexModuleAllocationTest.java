package io.hexstream.codec.jackson;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.codec.testing.Measurements;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.tuweni.bytes.Bytes;
import org.apache.tuweni.bytes.Bytes48;
import org.junit.jupiter.api.Test;

/**
 * Heap allocated per 128-blob {@code getBlobsV2}-shaped response by {@link HexModule}, against Besu's path
 * ({@code toHexString()} Strings, then Jackson), by the thread allocation counter after warm-up, both written by
 * {@code writeValue(OutputStream)} to a stream that discards.
 */
class HexModuleAllocationTest {
    public record BlobAndProofV2(Bytes blob, List<Bytes48> proofs) {}

    public record BlobAndProofV2Strings(String blob, List<String> proofs) {}

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void aResponseAllocatesAtMostOnePercentOfTheStringPath() throws IOException {
        Random random = new Random(128);
        List<BlobAndProofV2> blobs = new ArrayList<>();
        for (int i = 0; i < 128; i++) {
            byte[] blob = new byte[131_072];
            random.nextBytes(blob);
            List<Bytes48> proofs = new ArrayList<>();
            for (int p = 0; p < 128; p++) {
                byte[] proof = new byte[48];
                random.nextBytes(proof);
                proofs.add(Bytes48.wrap(proof));
            }
            blobs.add(new BlobAndProofV2(Bytes.wrap(blob), proofs));
        }
        ObjectMapper hex = new ObjectMapper().registerModule(new HexModule());
        ObjectMapper plain = new ObjectMapper();
        OutputStream sink = new OutputStream() { // writeValue closes its target: a fresh one would allocate
                    @Override
                    public void write(int b) {}

                    @Override
                    public void write(byte[] b, int off, int len) {}
                };

        long hexBytes = Long.MAX_VALUE;
        long stringBytes = Long.MAX_VALUE;
        for (int round = 0; round < 8; round++) {
            long before = THREADS.getCurrentThreadAllocatedBytes();
            hex.writeValue(sink, blobs);
            hexBytes = Math.min(hexBytes, THREADS.getCurrentThreadAllocatedBytes() - before);

            before = THREADS.getCurrentThreadAllocatedBytes();
            List<BlobAndProofV2Strings> strings = new ArrayList<>(blobs.size());
            for (BlobAndProofV2 b : blobs) {
                strings.add(new BlobAndProofV2Strings(
                        b.blob().toHexString(),
                        b.proofs().stream().map(Bytes::toHexString).toList()));
            }
            plain.writeValue(sink, strings);
            stringBytes = Math.min(stringBytes, THREADS.getCurrentThreadAllocatedBytes() - before);
        }
        Measurements.report(
                "a 128-blob response: HexModule allocated %d bytes, the String path %d (%.3f %%)%n",
                hexBytes, stringBytes, 100.0 * hexBytes / stringBytes);
        long hexAllocated = hexBytes;
        long stringAllocated = stringBytes;
        assertTrue(
                100 * hexAllocated <= stringAllocated,
                () -> "HexModule " + hexAllocated + " bytes, String path " + stringAllocated);
    }
}
