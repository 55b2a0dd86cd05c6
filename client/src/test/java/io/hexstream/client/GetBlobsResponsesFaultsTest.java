package io.hexstream.client;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hexstream.client.testing.EndlessStream;
import io.hexstream.client.testing.Responses;
import io.hexstream.client.testing.SplitStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Bodies that are not the method's response, each refused with its one-line message naming the path and the byte where
 * the fault is: a {@code ^} in each body below marks that byte (it is taken out before the body is read), and the body
 * is read whole and 7 bytes a read, with the same message. Then more entries than asked from a body that never ends,
 * and what passes through unchanged.
 */
class GetBlobsResponsesFaultsTest {
    private static final Random RANDOM = new Random(35);
    private static final String BLOB = Responses.hex(Responses.bytes(RANDOM, Responses.BLOB_SIZE));
    private static final String PROOF = Responses.hex(Responses.bytes(RANDOM, Responses.PROOF_SIZE));
    private static final String CELL = Responses.hex(Responses.bytes(RANDOM, Responses.CELL_SIZE));

    /** One version's reading, answers of no interest. */
    @FunctionalInterface
    private interface Read {
        List<?> read(InputStream body, int hashCount) throws IOException;
    }

    private static final Read V1 = (body, n) -> GetBlobsResponses.readV1(body, n, (blob, proof) -> blob);
    private static final Read V2 = (body, n) -> GetBlobsResponses.readV2(body, n, (blob, proofs) -> blob);
    private static final Read V3 = (body, n) -> GetBlobsResponses.readV3(body, n, (blob, proofs) -> blob);
    private static final Read V4 = (body, n) -> GetBlobsResponses.readV4(body, n, (cells, proofs) -> cells);

    @Test
    void theEnvelope() {
        assertFault(
                V2, "{\"jsonrpc\":\"1.0^\",\"id\":1,\"result\":null}", 0, "jsonrpc: expected \"2.0\", found \"1.0\"");
        assertFault(V2, "{\"id\":1,\"result\":null^}", 0, "no \"jsonrpc\": \"2.0\"");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"id\":1^}", 0, "neither result nor error");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":null,\"error\":{\"code\":1,\"message\":\"m\"}^}",
                0,
                "both result and error");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"result\":null,\"result\":nul^l}", 0, "result: duplicate member result");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":1.5^,\"message\":\"m\"}}",
                0,
                "error.code: expected an integer, found 1.5");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"error\":{\"message\":\"m\"^}}", 0, "error: error object without code");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"error\":^[]}", 0, "error: expected an error object, found an array");
        assertFault(V2, "^[1]", 0, "expected a JSON-RPC response object, found an array");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":^\"0x00\"}",
                0,
                "result: expected an array or null, found a string");
        assertFault(
                V2, "{\"jsonrpc\":\"2.0\",\"result\":^{}}", 0, "result: expected an array or null, found an object");
    }

    @Test
    void theJson() {
        assertFault(V2, "^", 0, "unexpected end of input");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"0x0102^",
                1,
                "result[0].blob: unexpected end of input");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"result\":null} \n^x", 0, "unexpected 'x' after the top-level value");
        assertFault(V2, "{\"jsonrpc\":\"2.0\",\"id\":\"a^\u00ff\",\"result\":null}", 0, "id: invalid UTF-8 byte 0xFF");
        assertFault(V2, "{\"jsonrpc\":\"2.0\" ^\"result\":null}", 0, "jsonrpc: expected ',' or '}', found '\"'");
    }

    @Test
    void blobAndProofV2() {
        String proofs = repeat("\"" + PROOF + "\"", 128);
        String entry = "{\"blob\":\"" + BLOB + "\",\"proofs\":[" + proofs + "]}";
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[" + entry + ",nul^l]}",
                2,
                "result[1]: expected a BlobAndProofV2 object, found null");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[" + entry + "^]}",
                2,
                "result: 1 entry, expected 2 (one per versioned hash asked)");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[" + entry + ",^" + entry + "]}",
                1,
                "result[1]: more than 1 entry (one per versioned hash asked)");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "\"^}]}",
                1,
                "result[0]: BlobAndProofV2 without proofs");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[" + proofs + "]^}]}",
                1,
                "result[0]: BlobAndProofV2 without blob");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "\",\"proofs\":["
                        + repeat("\"" + PROOF + "\"", 127) + "^]}]}",
                1,
                "result[0].proofs: 127 proofs, expected 128");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "\",\"proofs\":[" + proofs + ",^\"" + PROOF
                        + "\"]}]}",
                1,
                "result[0].proofs[128]: more than 128 proofs");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"0x0102^\"}]}",
                1,
                "result[0].blob: hex value of 2 bytes, expected at least 131072");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "^00\"}]}",
                1,
                "result[0].blob: hex value longer than 131072 bytes");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[\"0x123^\"]}]}",
                1,
                "result[0].proofs[0]: odd number of hex digits");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[\"0x12^g4\"]}]}",
                1,
                "result[0].proofs[0]: invalid hex character 'g'");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[\"^12\"]}]}",
                1,
                "result[0].proofs[0]: expected '0' of the 0x prefix, found '1'");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "\",\"blob\":^\"" + BLOB + "\"}]}",
                1,
                "result[0].blob: duplicate member blob");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":^\"" + PROOF + "\"}]}",
                1,
                "result[0].proofs: expected an array, found a string");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[nul^l]}]}",
                1,
                "result[0].proofs[0]: expected a hex string, found null");
        assertFault(
                V2,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":1^}]}",
                1,
                "result[0].blob: expected a hex string, found 1");
    }

    @Test
    void blobAndProofV1AndV3Entries() {
        assertFault(
                V1,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proof\":\"" + PROOF + "\"^}]}",
                1,
                "result[0]: BlobAndProofV1 without blob");
        assertFault(
                V1,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob\":\"" + BLOB + "\",\"proof\":\""
                        + PROOF.substring(0, PROOF.length() - 2) + "^\"}]}",
                1,
                "result[0].proof: hex value of 47 bytes, expected at least 48");
        assertFault(
                V1,
                "{\"jsonrpc\":\"2.0\",\"result\":[^[]]}",
                1,
                "result[0]: expected a BlobAndProofV1 object or null, found an array");
        assertFault(
                V3,
                "{\"jsonrpc\":\"2.0\",\"result\":[null,nul^l]}",
                1,
                "result[1]: more than 1 entry (one per versioned hash asked)");
        assertFault(
                V3,
                "{\"jsonrpc\":\"2.0\",\"result\":[tru^e]}",
                1,
                "result[0]: expected a BlobAndProofV2 object or null, found true");
    }

    @Test
    void blobCellsAndProofsV1() {
        String cellEntry = "{\"blob_cells\":[\"" + CELL + "\"],\"proofs\":[\"" + PROOF + "\"]}";
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob_cells\":[\"" + CELL + "\",\"" + CELL + "\"],\"proofs\":[\""
                        + PROOF + "\"]^}]}",
                1,
                "result[0]: 2 cells but 1 proof");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob_cells\":[\"" + CELL + "\",null],\"proofs\":[\"" + PROOF
                        + "\",\"" + PROOF + "\"]^}]}",
                1,
                "result[0]: cell 1 is null but its proof present");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[" + cellEntry + ",{\"blob_cells\":[],\"proofs\":[]^}]}",
                2,
                "result[1]: 0 cells, expected 1 (as the entries before)");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"proofs\":[]^}]}",
                1,
                "result[0]: BlobCellsAndProofsV1 without blob_cells");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob_cells\":[\"0x00^\"]}]}",
                1,
                "result[0].blob_cells[0]: hex value of 1 bytes, expected at least 2048");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob_cells\":[\"" + CELL + "\",1^]}]}",
                1,
                "result[0].blob_cells[1]: expected a hex string or null, found 1");
        assertFault(
                V4,
                "{\"jsonrpc\":\"2.0\",\"result\":[{\"blob_cells\":[" + repeat("null", 128) + ",nul^l]}]}",
                1,
                "result[0].blob_cells[128]: more than 128 cells");
    }

    /** The entry one past {@code hashCount} is refused as it begins: the body is not read to its (absent) end. */
    @Test
    void moreEntriesThanAskedFromABodyThatNeverEnds() {
        String proofs = repeat("\"" + PROOF + "\"", 128);
        String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[";
        String entry = "{\"blob\":\"" + BLOB + "\",\"proofs\":[" + proofs + "]},";
        assertRefusedBeyond(V2, head, entry, 3, 0, "result[3]: more than 3 entries (one per versioned hash asked)");
        assertRefusedBeyond(V3, head, "null,", 5, 3, "result[5]: more than 5 entries (one per versioned hash asked)");
        String cells = "{\"blob_cells\":[\"" + CELL + "\",null],\"proofs\":[\"" + PROOF + "\",null]},";
        assertRefusedBeyond(V4, head, cells, 1, 0, "result[1]: more than 1 entry (one per versioned hash asked)");
    }

    @Test
    void theEntryFunctionsExceptionPassesThroughUnchanged() {
        IllegalStateException refused = new IllegalStateException("no room");
        byte[] body = Responses.response(1, Responses.blobEntries(List.of(Responses.blob(RANDOM, 128)), false));
        IllegalStateException thrown = assertThrows(
                IllegalStateException.class,
                () -> GetBlobsResponses.readV2(new ByteArrayInputStream(body), 1, (blob, proofs) -> {
                    throw refused;
                }));
        assertSame(refused, thrown);
    }

    @Test
    void theStreamsExceptionPassesThroughUnchanged() {
        IOException reset = new IOException("Connection reset");
        InputStream body = new InputStream() {
            private int left = 1000;

            @Override
            public int read() throws IOException {
                if (left == 0) {
                    throw reset;
                }
                left--;
                return ' ';
            }
        };
        assertSame(reset, assertThrows(IOException.class, () -> V2.read(body, 1)));
    }

    @Test
    void aNegativeHashCountIsTheCallersMistake() {
        assertThrows(IllegalArgumentException.class, () -> V2.read(new ByteArrayInputStream(new byte[0]), -1));
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Reads {@code template} without its {@code ^}, whole and 7 bytes a read; the fault is {@code expected} at the byte
     * the {@code ^} stood before.
     */
    private static void assertFault(Read read, String template, int hashCount, String expected) {
        int at = template.indexOf('^');
        assertTrue(at >= 0 && template.indexOf('^', at + 1) < 0, "one ^ in the body");
        byte[] body = (template.substring(0, at) + template.substring(at + 1)).getBytes(ISO_8859_1);
        String message = expected + " at byte " + String.format(Locale.ROOT, "%,d", at);
        for (int size : new int[] {body.length + 1, 7}) {
            GetBlobsResponseException e = assertThrows(
                    GetBlobsResponseException.class, () -> read.read(SplitStream.of(body, size), hashCount), expected);
            assertEquals(message, e.getMessage(), "reads of " + size);
            assertEquals(at, e.offset());
            assertFalse(e.getMessage().contains("\n"));
        }
    }

    private static void assertRefusedBeyond(
            Read read, String head, String unit, int hashCount, int offsetInUnit, String expected) {
        EndlessStream body = new EndlessStream(head.getBytes(ISO_8859_1), unit.getBytes(ISO_8859_1));
        GetBlobsResponseException e =
                assertThrows(GetBlobsResponseException.class, () -> read.read(body, hashCount), expected);
        long at = head.length() + (long) hashCount * unit.length() + offsetInUnit;
        assertEquals(expected + " at byte " + String.format(Locale.ROOT, "%,d", at), e.getMessage());
        assertTrue(body.served() <= at + GetBlobsResponses.CHUNK_SIZE, body.served() + " bytes read");
    }

    private static String repeat(String element, int count) {
        return IntStream.range(0, count).mapToObj(i -> element).collect(Collectors.joining(","));
    }
}
