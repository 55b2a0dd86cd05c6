package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.hexstream.client.VersionedHash;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A client of the blob routes for tests (execution-apis #793, {@code refactor-ssz.md}, "{@code POST /blobs/v1}" …
 * "{@code /v4}"): request bodies, requests, and a strict decoder of the four response containers written from the SSZ
 * specification (consensus-specs {@code ssz/simple-serialize.md}: offsets {@code uint32} little-endian, a container's
 * first offset equal to its fixed part, offsets ascending and in bounds, a {@code Boolean} {@code 0x00} or
 * {@code 0x01}, list lengths within their limits) and the document's {@code Optional[T]} = {@code List[T, 1]},
 * independent of the server's code.
 */
public final class SszBlobs {
    public static final int BLOB = 131_072;
    public static final int PROOF = 48;
    public static final int CELL = 2_048;
    public static final int CELLS = 128;
    private static final int VARIABLE = -1;
    private static final int MAX_ENTRIES = 128;

    private SszBlobs() {}

    /**
     * One decoded {@code BlobVNEntry}: {@code available}, the blob (V1 to V3), the proofs (V1: the one proof; V2, V3:
     * the list), V4's 128 cell slots and 128 proof slots ({@code null} for {@code []}).
     */
    public record Entry(boolean available, byte[] blob, List<byte[]> proofs, List<byte[]> cells) {}

    /** {@code BlobsV1Request}/{@code BlobsV2Request}: offset 4, then the hashes. */
    public static byte[] request(List<VersionedHash> hashes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {4, 0, 0, 0});
        hashes.forEach(hash -> out.writeBytes(hash.toBytes()));
        return out.toByteArray();
    }

    /** {@code BlobsV4Request}: offset 20, the 16 bytes of {@code indices_bitarray}, then the hashes. */
    public static byte[] requestV4(List<VersionedHash> hashes, int... cells) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {20, 0, 0, 0});
        byte[] bits = new byte[16];
        for (int cell : cells) {
            bits[cell / 8] |= (byte) (1 << (cell % 8));
        }
        out.writeBytes(bits);
        hashes.forEach(hash -> out.writeBytes(hash.toBytes()));
        return out.toByteArray();
    }

    /**
     * {@code POST path} of {@code body} as {@code application/octet-stream}, with a fresh token from {@code client}.
     */
    public static HttpResponse<byte[]> post(EngineClient client, String path, byte[] body) {
        return client.send(
                HttpRequest.newBuilder(URI.create(client.uri().toString().replaceAll("/$", "") + path))
                        .header("Content-Type", "application/octet-stream")
                        .header("Authorization", "Bearer " + client.token())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build());
    }

    /** The bytes of a keep-alive {@code POST path} of {@code body}, {@code token} as bearer unless {@code null}. */
    public static byte[] rawPost(String token, String path, byte[] body) {
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                + "Content-Type: application/octet-stream\r\nContent-Length: " + body.length + "\r\n\r\n";
        byte[] request = Arrays.copyOf(head.getBytes(US_ASCII), head.length() + body.length);
        System.arraycopy(body, 0, request, head.length(), body.length);
        return request;
    }

    /** {@code BlobsV1Response}: a list of fixed-size {@code BlobV1Entry{available, BlobAndProofV1{blob, proof}}}. */
    public static List<Entry> decodeV1(byte[] body) {
        List<Entry> out = new ArrayList<>();
        for (byte[] element : fixedList(container(body, VARIABLE).get(0), 1 + BLOB + PROOF, MAX_ENTRIES)) {
            List<byte[]> entry = container(element, 1, BLOB + PROOF);
            List<byte[]> contents = container(entry.get(1), BLOB, PROOF);
            out.add(new Entry(bool(entry.get(0)), contents.get(0), List.of(contents.get(1)), null));
        }
        return out;
    }

    /**
     * {@code BlobsV2Response} or {@code BlobsV3Response}: {@code BlobV2Entry{available, BlobAndProofV2{blob, proofs}}}.
     */
    public static List<Entry> decodeV2(byte[] body) {
        List<Entry> out = new ArrayList<>();
        for (byte[] element : variableList(container(body, VARIABLE).get(0), MAX_ENTRIES)) {
            List<byte[]> entry = container(element, 1, VARIABLE);
            List<byte[]> contents = container(entry.get(1), BLOB, VARIABLE);
            out.add(new Entry(bool(entry.get(0)), contents.get(0), fixedList(contents.get(1), PROOF, CELLS), null));
        }
        return out;
    }

    /**
     * {@code BlobsV4Response}: {@code BlobV4Entry{available, BlobCellsAndProofs{blob_cells: List[Optional[
     * ByteVector[2048]], 128], proofs: List[Optional[Bytes48], 128]}}}; cells and proofs by slot, {@code null} for an
     * empty {@code Optional}.
     */
    public static List<Entry> decodeV4(byte[] body) {
        List<Entry> out = new ArrayList<>();
        for (byte[] element : variableList(container(body, VARIABLE).get(0), MAX_ENTRIES)) {
            List<byte[]> entry = container(element, 1, VARIABLE);
            List<byte[]> contents = container(entry.get(1), VARIABLE, VARIABLE);
            out.add(new Entry(
                    bool(entry.get(0)), null, optionals(contents.get(1), PROOF), optionals(contents.get(0), CELL)));
        }
        return out;
    }

    /** A {@code List[Optional[ByteVector[size]], 128]}: each slot a {@code List[ByteVector[size], 1]}. */
    private static List<byte[]> optionals(byte[] list, int size) {
        List<byte[]> out = new ArrayList<>();
        for (byte[] slot : variableList(list, CELLS)) {
            List<byte[]> one = fixedList(slot, size, 1);
            out.add(one.isEmpty() ? null : one.get(0));
        }
        return out;
    }

    /**
     * The fields of a container whose fields are {@code sizes} bytes each, {@link #VARIABLE} for a variable-size one
     * (its 4-byte offset in the fixed part, its bytes up to the next offset or the end).
     */
    private static List<byte[]> container(byte[] bytes, int... sizes) {
        int fixed = 0;
        for (int size : sizes) {
            fixed += size == VARIABLE ? 4 : size;
        }
        expect(bytes.length >= fixed, "container of " + bytes.length + " bytes, fixed part " + fixed);
        List<Integer> offsets = new ArrayList<>();
        int at = 0;
        for (int size : sizes) {
            if (size == VARIABLE) {
                offsets.add(uint32(bytes, at));
            }
            at += size == VARIABLE ? 4 : size;
        }
        expect(
                offsets.isEmpty() ? bytes.length == fixed : offsets.get(0) == fixed,
                "first offset, fixed part " + fixed);
        List<byte[]> fields = new ArrayList<>();
        at = 0;
        int variable = 0;
        for (int size : sizes) {
            if (size == VARIABLE) {
                int begin = offsets.get(variable);
                int end = variable + 1 < offsets.size() ? offsets.get(variable + 1) : bytes.length;
                expect(begin <= end && end <= bytes.length, "field offsets " + begin + ".." + end);
                fields.add(Arrays.copyOfRange(bytes, begin, end));
                variable++;
                at += 4;
            } else {
                fields.add(Arrays.copyOfRange(bytes, at, at + size));
                at += size;
            }
        }
        return fields;
    }

    /** A list of {@code size}-byte elements, at most {@code limit}. */
    private static List<byte[]> fixedList(byte[] bytes, int size, int limit) {
        expect(
                bytes.length % size == 0 && bytes.length / size <= limit,
                "list of " + bytes.length + " bytes, " + size + "-byte elements, at most " + limit);
        List<byte[]> out = new ArrayList<>();
        for (int at = 0; at < bytes.length; at += size) {
            out.add(Arrays.copyOfRange(bytes, at, at + size));
        }
        return out;
    }

    /** A list of variable-size elements, at most {@code limit}: an offset each, then the elements. */
    private static List<byte[]> variableList(byte[] bytes, int limit) {
        List<byte[]> out = new ArrayList<>();
        if (bytes.length == 0) {
            return out;
        }
        int first = uint32(bytes, 0);
        expect(first % 4 == 0 && first > 0 && first <= bytes.length && first / 4 <= limit, "first offset " + first);
        int count = first / 4;
        for (int i = 0; i < count; i++) {
            int begin = uint32(bytes, 4 * i);
            int end = i + 1 < count ? uint32(bytes, 4 * (i + 1)) : bytes.length;
            expect(begin <= end && end <= bytes.length, "offsets " + begin + ".." + end);
            out.add(Arrays.copyOfRange(bytes, begin, end));
        }
        return out;
    }

    private static boolean bool(byte[] one) {
        expect(one.length == 1 && (one[0] == 0 || one[0] == 1), "Boolean " + Arrays.toString(one));
        return one[0] == 1;
    }

    private static int uint32(byte[] bytes, int at) {
        long value = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at) & 0xFFFF_FFFFL;
        expect(value <= Integer.MAX_VALUE, "offset " + value);
        return (int) value;
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("not valid SSZ: " + what);
        }
    }
}
