package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hexstream.client.testing.CannedHttpServer;
import io.hexstream.client.testing.CollectedEntries;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.Responses.Blob;
import io.hexstream.client.testing.SszBodies;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link GetBlobsClient} on the SSZ routes of execution-apis #793 against a canned server: a body built here by hand
 * from the SSZ layouts ({@code refactor-ssz.md}), chunked in pieces of 1 to 64 bytes, gives the bytes it was built
 * from; V4 cells answered by slot give their cells; malformed bodies fail the call with one line naming the field and
 * the byte.
 */
class GetBlobsClientSszTest {

    private final Random random = new Random(793);
    private final List<Blob> blobs = List.of(Responses.blob(random, 128), Responses.blob(random, 128));
    /** The 128 cells and 128 cell proofs of V4's entry 0, back to back. */
    private final byte[] cells = Responses.bytes(random, 128 * BlobSizes.CELL_SIZE);

    private final byte[] cellProofs = Responses.bytes(random, 128 * BlobSizes.PROOF_SIZE);

    @Test
    void aHandWrittenBodyInSmallChunksGivesItsBytes() throws Exception {
        byte[] body = v2Body();
        for (int max : new int[] {1, 7, 64}) {
            CollectedEntries got = new CollectedEntries();
            BlobsOutcome outcome = call(CannedHttpServer.chunked(body, max, max), BlobsMethod.V2, null, got);

            assertEquals(2, outcome.available());
            assertEquals(body.length, outcome.bodyBytes());
            assertEquals(List.of("blob 0", "blob 1"), got.told);
            for (int i = 0; i < 2; i++) {
                assertArrayEquals(blobs.get(i).blob(), got.blobs.get(i));
                assertArrayEquals(Responses.concat(blobs.get(i).proofs()), got.proofs.get(i));
            }
        }
    }

    @Test
    void malformedBodiesAreOneLine() throws Exception {
        byte[] good = v2Body();
        int entry1 = 4 + 8 + entrySize();
        assertMalformed(with(good, 0, 5), "entries: offset 5, expected 4 at byte 0");
        assertMalformed(with(good, 4, 9), "entries offsets: offset 9, expected 8 at byte 4");
        assertMalformed(
                with(good, 8, 9),
                "entries[0].contents.proofs: 6136 bytes of proofs by the offsets, expected 6144 at byte "
                        + grouped(12 + 5 + 131_072 + 4));
        assertMalformed(with(good, entry1, 2), "entries[1].available: not a Boolean: 2 at byte " + grouped(entry1));
        assertMalformed(
                with(good, entry1 + 1, 6), "entries[1].contents: offset 6, expected 5 at byte " + grouped(entry1 + 1));
        assertMalformed(
                with(good, 12 + 5 + BlobSizes.BLOB_SIZE, 0),
                "entries[0].contents.proofs: offset 131072, expected 131076 at byte " + grouped(12 + 5 + 131_072));
        assertMalformed(
                Arrays.copyOf(good, good.length - 1),
                "entries[1].contents.proofs: the body ended 1 bytes short of this field at byte "
                        + grouped(good.length - 1));
        assertMalformed(
                Arrays.copyOf(good, good.length + 1),
                "entries: bytes after the last entry at byte " + grouped(good.length));
    }

    @Test
    void v4CellsAnsweredBySlotGiveTheirCells() throws Exception {
        byte[] body = v4Body(new int[] {0, 5}, new int[] {0, 5});
        CollectedEntries got = new CollectedEntries();
        BlobsOutcome outcome = call(CannedHttpServer.chunked(body, 64, 8), BlobsMethod.V4, bitarray(), got);

        assertEquals(1, outcome.available());
        assertEquals(List.of("cells 0 [0, 5]", "missing 1"), got.told);
        assertArrayEquals(
                Responses.concat(List.of(
                        Responses.cell(cells, 0, BlobSizes.CELL_SIZE), Responses.cell(cells, 5, BlobSizes.CELL_SIZE))),
                got.blobs.get(0));
        assertArrayEquals(
                Responses.concat(List.of(
                        Responses.cell(cellProofs, 0, BlobSizes.PROOF_SIZE),
                        Responses.cell(cellProofs, 5, BlobSizes.PROOF_SIZE))),
                got.proofs.get(0));

        assertEquals(
                "entries[0].contents.proofs: the proofs answered are not for the cells answered at byte "
                        + grouped(12 + 5 + 8 + 512 + 2 * 2048 + 512),
                fault(ok(v4Body(new int[] {0, 5}, new int[] {0})), BlobsMethod.V4, bitarray()));
        assertEquals(
                "entries[0].contents.blob_cells: slot 3 holds a value, and cell 3 was not asked for at byte "
                        + grouped(12 + 5 + 8 + 3 * 4),
                fault(ok(v4Body(new int[] {0, 3}, new int[] {0, 3})), BlobsMethod.V4, bitarray()));
    }

    // ---------------------------------------------------------------- bodies, by hand from refactor-ssz.md (SszBodies)

    private static int entrySize() {
        return SszBodies.v2EntrySize();
    }

    private byte[] v2Body() {
        return SszBodies.v2(blobs);
    }

    private byte[] v4Body(int[] cellSlots, int[] proofSlots) {
        return SszBodies.v4(cells, cellProofs, cellSlots, proofSlots);
    }

    /** {@code indices_bitarray} of cells 0, 5 and 100. */
    private static byte[] bitarray() {
        byte[] bits = new byte[CellIndices.BITARRAY_SIZE];
        for (int cell : new int[] {0, 5, 100}) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        return bits;
    }

    private static byte[] with(byte[] body, int at, int value) {
        byte[] copy = body.clone();
        copy[at] = (byte) value;
        return copy;
    }

    private static byte[] ok(byte[] body) {
        return CannedHttpServer.contentLength(200, "application/octet-stream", body);
    }

    private static String grouped(long offset) {
        return String.format(Locale.ROOT, "%,d", offset);
    }

    // ---------------------------------------------------------------- running

    private static BlobsOutcome call(byte[] response, BlobsMethod method, byte[] bitarray, CollectedEntries listener)
            throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response);
                GetBlobsClient client = client(server)) {
            return client.call(getBlobs(method, bitarray), listener).get(30, TimeUnit.SECONDS);
        }
    }

    private void assertMalformed(byte[] body, String fault) throws Exception {
        assertEquals(fault, fault(ok(body), BlobsMethod.V2, null));
    }

    private static String fault(byte[] response, BlobsMethod method, byte[] bitarray) throws Exception {
        try (CannedHttpServer server = new CannedHttpServer(n -> response);
                GetBlobsClient client = client(server)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> client.call(getBlobs(method, bitarray), new CollectedEntries())
                            .get(30, TimeUnit.SECONDS));
            return assertInstanceOf(BadResponseException.class, e.getCause()).getMessage();
        }
    }

    private static GetBlobsClient client(CannedHttpServer server) {
        return GetBlobsClient.builder(EndpointUrl.parse("http://127.0.0.1:" + server.port() + "/"))
                .tokens(() -> "unchecked")
                .ssz(true)
                .build();
    }

    private static GetBlobsCall getBlobs(BlobsMethod method, byte[] bitarray) {
        List<VersionedHash> asked = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            byte[] hash = new byte[BlobSizes.VERSIONED_HASH_SIZE];
            hash[0] = VersionedHash.VERSION_KZG;
            hash[1] = (byte) i;
            asked.add(VersionedHash.wrap(hash));
        }
        return new GetBlobsCall(method, asked, bitarray);
    }
}
