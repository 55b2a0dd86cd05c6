package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.hexstream.server.blob.CellIndices;
import io.hexstream.server.cache.EncodedEntry;
import io.hexstream.server.cache.HexCache;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes replies as the JSON-RPC response document, a {@link JsonBody}: results by their spec shape
 * ({@code BlobAndProofV1}/{@code V2} with blobs and proofs referenced, not copied or encoded;
 * {@code BlobCellsAndProofsV1} with cells referenced in the blob and its extension cells; strings;
 * {@code DATA}), errors as {@code {"code":…,"message":"…"}}, {@code -32000} also
 * with {@code "data":{"err":"…"}} (execution-apis {@code common.md}, "Errors"). The body's length is
 * exact before its first byte is produced. Stateless, so one instance serves every thread.
 *
 * <p>With a {@link HexCache}, a blobs result whose every entry is cached is written from the cached
 * digits (retained slices, nothing encoded; for {@code BlobCellsAndProofsV1}, cells 0 to 63 and the
 * proofs, copied from them, the extension cells encoded); otherwise as without one. The bytes are the same.
 */
public final class ResponseWriter {
    /** {@code {"jsonrpc":"2.0","id":} and {@code ,"result":} and {@code }}: a result reply besides its id and result. */
    private static final int RESULT_ENVELOPE = ascii("{\"jsonrpc\":\"2.0\",\"id\":,\"result\":}");
    private static final long NULL = 4;
    /** A {@code BlobAndProofV1}: {@code {"blob":"0x…","proof":"0x…"}}. */
    private static final long BLOB_AND_PROOF_V1 = object(member("blob", hex(BlobSizes.BLOB_SIZE)),
            member("proof", hex(BlobSizes.PROOF_SIZE)));
    /** A {@code BlobAndProofV2}: {@code {"blob":"0x…","proofs":["0x…",…]}}, 275,096 bytes. */
    private static final long BLOB_AND_PROOF_V2 = object(member("blob", hex(BlobSizes.BLOB_SIZE)),
            member("proofs", hexArray(BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB)));

    /** Where cached digits come from; {@code null}: none, every value encoded as it is written. */
    private final HexCache cache;

    /** A writer that encodes every value as it is written. */
    public ResponseWriter() {
        this(null);
    }

    /** A writer that answers blobs results from {@code cache} when it holds all their entries ({@code null}: no cache). */
    public ResponseWriter(HexCache cache) {
        this.cache = cache;
    }
    /** The response document for {@code replies}; the caller owns it (write it, or release it). */
    public JsonBody body(Replies replies) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            if (replies.batch()) {
                b.beginArray();
            }
            for (RpcReply reply : replies.replies()) {
                reply(b, reply);
            }
            if (replies.batch()) {
                b.endArray();
            }
            return b.build();
        }
    }

    /**
     * The exact bytes {@code reply} takes in a response document (separators not included). A blobs
     * result is counted, not built (its body is built once, to be written); other replies are small and
     * are built to be measured.
     */
    public long length(RpcReply reply) {
        if (reply.error() == null && reply.result() instanceof RpcResult.BlobsAndProofsV2 v2) {
            return RESULT_ENVELOPE + reply.id().length + (v2.entries() == null ? NULL
                    : array(v2.entries(), BLOB_AND_PROOF_V2));
        }
        if (reply.error() == null && reply.result() instanceof RpcResult.BlobsAndProofsV1 v1) {
            return RESULT_ENVELOPE + reply.id().length + array(v1.entries(), BLOB_AND_PROOF_V1);
        }
        if (reply.error() == null && reply.result() instanceof RpcResult.BlobCellsAndProofsV1 v4) {
            long length = 2 + Math.max(0, v4.entries().size() - 1);
            for (BlobEntry entry : v4.entries()) {
                length += entry == null ? NULL : blobCellsAndProofsLength(entry, v4.cells());
            }
            return RESULT_ENVELOPE + reply.id().length + length;
        }
        JsonBody one = body(new Replies(List.of(reply), false));
        try {
            return one.length();
        } finally {
            one.release();
        }
    }

    /** {@code [e,…]} of {@code entries}: {@code null} where an entry is, else {@code each} bytes. */
    private static long array(List<BlobEntry> entries, long each) {
        long length = 2 + Math.max(0, entries.size() - 1);
        for (BlobEntry entry : entries) {
            length += entry == null ? NULL : each;
        }
        return length;
    }

    /**
     * A {@code BlobCellsAndProofsV1} as {@link #blobCellsAndProofs} writes it: {@code null} for each
     * cell (and its proof) that {@code entry} lacks.
     */
    private static long blobCellsAndProofsLength(BlobEntry entry, CellIndices cells) {
        int count = cells.count();
        int present = entry.cellProofs() == null ? 0 : entry.extensionCells() != null ? count : cells.inBlob();
        long values = 2 + Math.max(0, count - 1) + (long) (count - present) * NULL;
        return object(member("blob_cells", values + present * hex(BlobSizes.CELL_SIZE)),
                member("proofs", values + present * hex(BlobSizes.PROOF_SIZE)));
    }

    /** {@code "0x…"} of {@code size} bytes. */
    private static long hex(int size) {
        return 2L * size + 4;
    }

    /** {@code ["0x…",…]} of {@code count} values of {@code size} bytes. */
    private static long hexArray(int size, int count) {
        return 2 + count * hex(size) + Math.max(0, count - 1);
    }

    /** {@code "name":value}. */
    private static long member(String name, long value) {
        return ascii(name) + 3 + value;
    }

    /** {@code {m,…}}. */
    private static long object(long... members) {
        long length = 2 + members.length - 1;
        for (long member : members) {
            length += member;
        }
        return length;
    }

    private static int ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII).length;
    }

    private void reply(JsonBodyBuilder b, RpcReply reply) {
        b.beginObject().name("jsonrpc").string("2.0").name("id").raw(reply.id());
        if (reply.error() != null) {
            error(b.name("error"), reply);
        } else {
            result(b.name("result"), reply.result());
        }
        b.endObject();
    }

    private void result(JsonBodyBuilder b, RpcResult result) {
        if (result instanceof RpcResult.BlobsAndProofsV2 v2) {
            if (v2.entries() == null) {
                b.nullValue();
            } else {
                entries(b, v2.entries(), ResponseWriter::blobAndProofV2);
            }
        } else if (result instanceof RpcResult.BlobCellsAndProofsV1 v4) {
            entries(b, v4.entries(), (into, entry, encoded) -> blobCellsAndProofs(into, entry, encoded, v4.cells()));
        } else if (result instanceof RpcResult.BlobsAndProofsV1 v1) {
            entries(b, v1.entries(), ResponseWriter::blobAndProofV1);
        } else if (result instanceof RpcResult.Strings strings) {
            b.beginArray();
            strings.values().forEach(b::string);
            b.endArray();
        } else if (result instanceof RpcResult.Data data) {
            b.hex(data.bytes());
        } else {
            throw new IllegalArgumentException("unknown result " + result);
        }
    }

    /** Writes one pooled entry, from its cached digits if {@code encoded} is not {@code null}. */
    @FunctionalInterface
    private interface EntryWriter {
        void write(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded);
    }

    /**
     * The array of {@code entries}, {@code null} where an entry is; each from its cached digits when the
     * cache holds every one of them, else encoded.
     */
    private void entries(JsonBodyBuilder b, List<BlobEntry> entries, EntryWriter writer) {
        EncodedEntry[] cached = cache != null ? cache.retainAll(entries) : null;
        try {
            b.beginArray();
            for (int i = 0; i < entries.size(); i++) {
                BlobEntry entry = entries.get(i);
                if (entry == null) {
                    b.nullValue();
                } else {
                    writer.write(b, entry, cached != null ? cached[i] : null);
                }
            }
            b.endArray();
        } finally {
            HexCache.releaseAll(cached); // the body retained what it keeps
        }
    }

    /** One {@code BlobAndProofV2}: the blob and its 128 cell proofs. */
    private static void blobAndProofV2(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded) {
        b.beginObject().name("blob");
        if (encoded != null) {
            b.encodedHex(encoded.blob(), true).name("proofs").encodedHexArray(encoded.cellProofs(),
                    BlobSizes.PROOF_SIZE, BlobSizes.CELLS_PER_EXT_BLOB, true);
        } else {
            b.hex(entry.blob()).name("proofs").hexArray(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE,
                    BlobSizes.CELLS_PER_EXT_BLOB);
        }
        b.endObject();
    }

    /** One {@code BlobAndProofV1}: the blob and its blob proof. */
    private static void blobAndProofV1(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded) {
        b.beginObject().name("blob");
        if (encoded != null) {
            b.encodedHex(encoded.blob(), true).name("proof").encodedHex(encoded.blobProof(), true);
        } else {
            b.hex(entry.blob()).name("proof").hex(entry.blobProof());
        }
        b.endObject();
    }

    /**
     * One {@code BlobCellsAndProofsV1}: cells 0 to 63 referenced in the blob, 64 to 127 in the extension
     * cells, proofs in the cell proofs; {@code null} cell and proof for each cell the entry lacks (every
     * cell without cell proofs, 64 to 127 without extension cells). With {@code encoded}, the entry's
     * cached digits, cells 0 to 63 and the proofs come from them, not encoded; the cache holds no digits
     * of the extension cells, which are encoded as without it.
     */
    private static void blobCellsAndProofs(JsonBodyBuilder b, BlobEntry entry, EncodedEntry encoded,
            CellIndices cells) {
        b.beginObject().name("blob_cells").beginArray();
        if (entry.cellProofs() == null) {
            nulls(b, cells.count());
            b.endArray().name("proofs").beginArray();
            nulls(b, cells.count());
        } else {
            int extension = cells.count() - cells.inBlob();
            if (encoded != null) {
                b.encodedHexElements(encoded.blob(), BlobSizes.CELL_SIZE, cells.cellList(), 0, cells.inBlob(), true);
            } else {
                b.hexElements(entry.blob(), 0, BlobSizes.CELL_SIZE, cells.cellList(), 0, cells.inBlob());
            }
            if (entry.extensionCells() != null) {
                b.hexElements(entry.extensionCells(), 0, BlobSizes.CELL_SIZE, cells.extensionList(), 0, extension);
            } else {
                nulls(b, extension);
            }
            int[] proofs = entry.extensionCells() != null ? cells.cellList() : cells.proofListWithoutExtension();
            b.endArray().name("proofs").beginArray();
            if (encoded != null && encoded.cellProofs() != null) {
                b.encodedHexElements(encoded.cellProofs(), BlobSizes.PROOF_SIZE, proofs, 0, cells.count(), true);
            } else {
                b.hexElements(entry.cellProofs(), 0, BlobSizes.PROOF_SIZE, proofs, 0, cells.count());
            }
        }
        b.endArray().endObject();
    }

    private static void nulls(JsonBodyBuilder b, int count) {
        for (int i = 0; i < count; i++) {
            b.nullValue();
        }
    }

    /** The {@code error} object of a failed reply. */
    private static void error(JsonBodyBuilder b, RpcReply reply) {
        b.beginObject().name("code").number(reply.error().code()).name("message").string(reply.errorMessage());
        if (reply.error() == RpcError.SERVER_ERROR) {
            b.name("data").beginObject()
                    .name("err").string(reply.detail() != null ? reply.detail() : reply.error().message())
                    .endObject();
        }
        b.endObject();
    }
}
