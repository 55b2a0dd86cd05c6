package io.hexstream.server.testing;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.hexstream.server.blob.VersionedHash;
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
 * A binary SSZ getBlobs client for tests (EIP-8178 draft): request bodies, requests, and a decoder of
 * the three response containers written from the draft's definitions, independent of the server's code.
 */
public final class SszBlobs {
    private static final int BLOB = 131_072;
    private static final int PROOF = 48;
    private static final int CELL_PROOFS = 128 * PROOF;

    private SszBlobs() {}

    /** A blob with its proof (V1) or its 128 cell proofs back to back (V2, V3). */
    public record BlobAndProofs(byte[] blob, byte[] proofs) {}

    /** {@code GetBlobsRequest}: offset 4, then the hashes. */
    public static byte[] request(List<VersionedHash> hashes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {4, 0, 0, 0});
        for (VersionedHash hash : hashes) {
            out.writeBytes(hash.toBytes());
        }
        return out.toByteArray();
    }

    /** {@code POST path} of {@code body} with a fresh token from {@code client}. */
    public static HttpResponse<byte[]> post(EngineClient client, String path, byte[] body) {
        return client.send(HttpRequest.newBuilder(URI.create(client.uri().toString().replaceAll("/$", "") + path))
                .header("Content-Type", "application/octet-stream").header("Authorization", "Bearer " + client.token())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
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

    /** {@code GetBlobsV1Response}: the offset 4, then blob ‖ proof per hash. */
    public static List<BlobAndProofs> decodeV1(byte[] body) {
        ByteBuffer in = le(body);
        expect(in.getInt(0) == 4, "container offset " + in.getInt(0));
        expect((body.length - 4) % (BLOB + PROOF) == 0, "V1 list of " + (body.length - 4) + " bytes");
        List<BlobAndProofs> out = new ArrayList<>();
        for (int at = 4; at < body.length; at += BLOB + PROOF) {
            out.add(new BlobAndProofs(Arrays.copyOfRange(body, at, at + BLOB), Arrays.copyOfRange(body, at + BLOB, at + BLOB + PROOF)));
        }
        return out;
    }

    /** {@code GetBlobsV2Response}: a list of variable-size {@code BlobAndProofV2}. */
    public static List<BlobAndProofs> decodeV2(byte[] body) {
        List<BlobAndProofs> out = new ArrayList<>();
        for (byte[] element : variableList(body, true, body.length)) {
            out.add(blobAndProofV2(element));
        }
        return out;
    }

    /** {@code GetBlobsV3Response}: a list of {@code List[BlobAndProofV2, 1]}; {@code null} for an empty one. */
    public static List<BlobAndProofs> decodeV3(byte[] body) {
        List<BlobAndProofs> out = new ArrayList<>();
        for (byte[] item : variableList(body, true, body.length)) {
            List<byte[]> one = variableList(item, false, item.length);
            expect(one.size() <= 1, "List[BlobAndProofV2, 1] of " + one.size());
            out.add(one.isEmpty() ? null : blobAndProofV2(one.get(0)));
        }
        return out;
    }

    private static BlobAndProofs blobAndProofV2(byte[] element) {
        expect(element.length == BLOB + 4 + CELL_PROOFS, "BlobAndProofV2 of " + element.length + " bytes");
        expect(le(element).getInt(BLOB) == BLOB + 4, "proofs offset " + le(element).getInt(BLOB));
        return new BlobAndProofs(Arrays.copyOf(element, BLOB), Arrays.copyOfRange(element, BLOB + 4, element.length));
    }

    /**
     * The elements of a list of variable-size elements ending at {@code to}: all of {@code bytes}, or
     * ({@code inContainer}) the one field of a container, after its offset.
     */
    private static List<byte[]> variableList(byte[] bytes, boolean inContainer, int to) {
        ByteBuffer in = le(bytes);
        int start = inContainer ? in.getInt(0) : 0;
        expect(!inContainer || start == 4, "container offset " + start);
        List<byte[]> out = new ArrayList<>();
        if (start == to) {
            return out;
        }
        int first = in.getInt(start);
        expect(first % 4 == 0 && first > 0 && start + first <= to, "first offset " + first);
        int count = first / 4;
        for (int i = 0; i < count; i++) {
            int begin = start + in.getInt(start + 4 * i);
            int end = i + 1 < count ? start + in.getInt(start + 4 * (i + 1)) : to;
            expect(begin <= end, "offsets " + begin + " > " + end);
            out.add(Arrays.copyOfRange(bytes, begin, end));
        }
        return out;
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void expect(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("not valid SSZ: " + what);
        }
    }
}
