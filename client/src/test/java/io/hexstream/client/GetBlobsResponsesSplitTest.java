package io.hexstream.client;

import static io.hexstream.client.testing.Entries.assertBlobs;
import static io.hexstream.client.testing.Entries.assertCells;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.Responses.Cells;
import io.hexstream.client.testing.SplitStream;
import io.hexstream.codec.testing.SeededTrials;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Responses written by Jackson from random bytes, read back whatever the sizes of the stream's reads: every size from 1
 * to 64 bytes, random sizes, and a 128-blob getBlobsV2 response; each entry handed over as soon as it is read. Run with
 * the Vector API and again with the portable kernel (the pom's {@code table-kernel} execution).
 */
class GetBlobsResponsesSplitTest {

    @Test
    void everyReadSizeFrom1To64OfEachVersion() throws IOException {
        Random random = new Random(32);
        List<Blob> v1 = List.of(Responses.blob(random, 1));
        List<Blob> v2 = List.of(Responses.blob(random, 128));
        List<Blob> v3 = new ArrayList<>();
        v3.add(null);
        v3.add(Responses.blob(random, 128));
        List<Cells> v4 = new ArrayList<>();
        v4.add(Responses.cells(random, 5, 0b01010));
        v4.add(null);
        v4.add(Responses.cells(random, 5, 0));
        byte[] body1 = Responses.response(1, Responses.blobEntries(v1, true));
        byte[] body2 = Responses.response(2, Responses.blobEntries(v2, false));
        byte[] body3 = Responses.response(3, Responses.blobEntries(v3, false));
        byte[] body4 = Responses.response(4, Responses.cellEntries(v4));
        for (int size = 1; size <= 64; size++) {
            String what = "reads of " + size;
            assertBlobs(
                    v1, GetBlobsResponses.readV1(SplitStream.of(body1, size), 1, GetBlobsResponsesSplitTest::v1), what);
            assertBlobs(v2, GetBlobsResponses.readV2(SplitStream.of(body2, size), 1, Blob::new), what);
            assertBlobs(v3, GetBlobsResponses.readV3(SplitStream.of(body3, size), 2, Blob::new), what);
            assertCells(v4, GetBlobsResponses.readV4(SplitStream.of(body4, size), 3, Cells::new), what);
        }
    }

    @Test
    void randomReadSizes() {
        SeededTrials.run(3232, 24, (random, trial) -> {
            Random content = new Random(random.nextLong());
            List<Blob> blobs = new ArrayList<>();
            int count = random.nextInt(5);
            for (int i = 0; i < count; i++) {
                blobs.add(random.nextInt(3) == 0 ? null : Responses.blob(content, 128));
            }
            byte[] body = Responses.response(trial, Responses.blobEntries(blobs, false));
            // Mostly a socket's segment sizes, some tiny reads, some larger than the reader's chunk.
            int max = random.nextBoolean() ? 64 : 3 * GetBlobsResponses.CHUNK_SIZE;
            SplitStream stream = new SplitStream(body, () -> 1 + random.nextInt(max));
            assertBlobs(blobs, GetBlobsResponses.readV3(stream, count, Blob::new), "trial " + trial);
        });
    }

    @Test
    void aGetBlobsV2ResponseOf128BlobsInRandomReads() throws IOException {
        Random random = new Random(128);
        List<Blob> blobs = new ArrayList<>();
        for (int i = 0; i < 128; i++) {
            blobs.add(Responses.blob(random, 128));
        }
        byte[] body = Responses.response("0x80", Responses.blobEntries(blobs, false));
        SplitStream stream = new SplitStream(body, () -> 1 + random.nextInt(200_000));
        assertBlobs(blobs, GetBlobsResponses.readV2(stream, 128, Blob::new), "128 blobs");
        assertEquals(body.length, stream.served());
    }

    /** An entry is handed over from the read that brought its closing brace, before any later read. */
    @Test
    void eachEntryIsHandedOverBeforeTheRestOfTheBodyIsRead() throws IOException {
        Random random = new Random(7);
        List<Blob> blobs =
                List.of(Responses.blob(random, 128), Responses.blob(random, 128), Responses.blob(random, 128));
        byte[] body = Responses.response(1, Responses.blobEntries(blobs, false));
        String text = new String(body, ISO_8859_1);
        List<Integer> closingBraces = new ArrayList<>();
        for (int from = 0, at; (at = text.indexOf("]}", from)) >= 0; from = at + 1) {
            closingBraces.add(at + 1); // each entry ends its proofs, then itself; last, the result and the response
        }
        assertEquals(List.of(body.length - 1), closingBraces.subList(3, 4));
        int size = 64;
        SplitStream stream = SplitStream.of(body, size);
        List<Integer> servedAtEntry = new ArrayList<>();
        GetBlobsResponses.readV2(stream, 3, (blob, proofs) -> servedAtEntry.add(stream.served()));
        for (int k = 0; k < 3; k++) {
            int brace = closingBraces.get(k);
            int served = servedAtEntry.get(k);
            assertTrue(served > brace && served <= brace + size, "entry " + k + ": " + served + " bytes served");
        }
        assertTrue(servedAtEntry.get(1) < closingBraces.get(2), "the last entry was still to come");
    }

    private static Blob v1(byte[] blob, byte[] proof) {
        return new Blob(blob, List.of(proof));
    }
}
