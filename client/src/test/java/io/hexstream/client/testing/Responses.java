package io.hexstream.client.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.BlobsMethod;
import io.hexstream.client.GetBlobsCall;
import io.hexstream.client.VersionedHash;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * getBlobs responses of random content, written by Jackson from {@link HexFormat} strings (the independent writer), and
 * the entries they were made from (the expected values), and the calls that ask for them.
 */
public final class Responses {
    public static final int BLOB_SIZE = 131_072;
    public static final int PROOF_SIZE = 48;
    public static final int CELL_SIZE = 2_048;
    public static final int CELL_PROOFS = 128;

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    /** A blob and its proofs: one for {@code BlobAndProofV1}, 128 for {@code BlobAndProofV2}. */
    public record Blob(byte[] blob, List<byte[]> proofs) {}

    /** A {@code BlobCellsAndProofsV1}: cells and their proofs, {@code null} at the same places. */
    public record Cells(List<byte[]> cells, List<byte[]> proofs) {}

    private Responses() {}

    public static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A blob with {@code proofCount} proofs. */
    public static Blob blob(Random random, int proofCount) {
        List<byte[]> proofs = new ArrayList<>();
        for (int i = 0; i < proofCount; i++) {
            proofs.add(bytes(random, PROOF_SIZE));
        }
        return new Blob(bytes(random, BLOB_SIZE), proofs);
    }

    /** {@code count} cells, each missing (with its proof) when {@code missing} has its bit. */
    public static Cells cells(Random random, int count, long missing) {
        List<byte[]> cells = new ArrayList<>();
        List<byte[]> proofs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean absent = (missing >>> i & 1) != 0;
            cells.add(absent ? null : bytes(random, CELL_SIZE));
            proofs.add(absent ? null : bytes(random, PROOF_SIZE));
        }
        return new Cells(cells, proofs);
    }

    /** {@code 0x} and lowercase digits. */
    public static String hex(byte[] bytes) {
        return bytes == null ? null : "0x" + HEX.formatHex(bytes);
    }

    /** The result's entries as JSON values: {@code BlobAndProofV1} when {@code v1}, else {@code BlobAndProofV2}. */
    public static List<Object> blobEntries(List<Blob> blobs, boolean v1) {
        List<Object> result = new ArrayList<>();
        for (Blob b : blobs) {
            if (b == null) {
                result.add(null);
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("blob", hex(b.blob()));
            if (v1) {
                entry.put("proof", hex(b.proofs().get(0)));
            } else {
                entry.put("proofs", b.proofs().stream().map(Responses::hex).toList());
            }
            result.add(entry);
        }
        return result;
    }

    /** The result's {@code BlobCellsAndProofsV1} entries as JSON values. */
    public static List<Object> cellEntries(List<Cells> entries) {
        List<Object> result = new ArrayList<>();
        for (Cells c : entries) {
            if (c == null) {
                result.add(null);
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("blob_cells", c.cells().stream().map(Responses::hex).toList());
            entry.put("proofs", c.proofs().stream().map(Responses::hex).toList());
            result.add(entry);
        }
        return result;
    }

    /** A call of {@code hashes} versioned hashes, random from a seed of {@code hashes}; {@code cells} for V4. */
    public static GetBlobsCall call(BlobsMethod method, int hashes, byte[] cells) {
        Random random = new Random(hashes);
        List<VersionedHash> asked = new ArrayList<>();
        for (int i = 0; i < hashes; i++) {
            asked.add(VersionedHash.wrap(bytes(random, BlobSizes.VERSIONED_HASH_SIZE)));
        }
        return new GetBlobsCall(method, asked, cells);
    }

    /** The {@code index}th {@code size}-byte piece of {@code all}: one cell, or one cell proof. */
    public static byte[] cell(byte[] all, int index, int size) {
        return Arrays.copyOfRange(all, index * size, (index + 1) * size);
    }

    /** {@code parts} one after another. */
    public static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        parts.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /** {@code {"jsonrpc":"2.0","id":id,"result":result}}, compact. */
    public static byte[] response(Object id, Object result) {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("jsonrpc", "2.0");
        response.put("id", id);
        response.put("result", result);
        return write(response);
    }

    /** {@code value} as Jackson writes it, compact. */
    public static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code value} as Jackson's default pretty printer writes it. */
    public static byte[] pretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
