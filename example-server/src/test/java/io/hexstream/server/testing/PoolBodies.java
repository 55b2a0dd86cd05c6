package io.hexstream.server.testing;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The exact response bodies a server must send for getBlobs calls, built here from the pool's bytes (the JDK's
 * {@link HexFormat} for the digits, the SSZ layout written out by hand from the spec): their length and SHA-256, to
 * compare with what a server sent without trusting its own writer.
 */
public final class PoolBodies {
    private static final HexFormat HEX = HexFormat.of();

    private PoolBodies() {}

    /** A body's exact length and SHA-256, as {@link HttpConnection.Digested} gives them for a response. */
    public record Expected(long length, byte[] sha256) {}

    /** The pool's entry for each of {@code hashes}, in order, {@code null} where it has none. */
    public static List<BlobEntry> entries(DurableBlobPool pool, List<?> hashes) {
        List<BlobEntry> entries = new ArrayList<>(hashes.size());
        for (Object hash : hashes) {
            entries.add(pool.get(hash instanceof VersionedHash v ? v : VersionedHash.decode(hash.toString())));
        }
        return entries;
    }

    /**
     * As {@link #entries(DurableBlobPool, List)}, from the store in {@code dataDir}, read before any server uses it (a
     * server in its own JVM).
     */
    public static List<BlobEntry> entries(Path dataDir, List<?> hashes) {
        try {
            return entries(DurableBlobPool.open(dataDir, 1024, ServerMetrics.NONE), hashes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code {"jsonrpc":"2.0","id":<id>,"result":[…]}}: a {@code BlobAndProofV2} {@code {"blob":"0x…","proofs":["0x…",
     * …]}} per entry with its 128 cell proofs, {@code null} per missing one (execution-apis {@code osaka.md},
     * {@code engine_getBlobsV2} and {@code V3}).
     */
    public static Expected getBlobsV2(int id, List<BlobEntry> entries) {
        return getBlobsV2Prefixes(id, entries).get(entries.size() - 1);
    }

    /** {@link #getBlobsV2} of the first 1, 2, … up to all {@code entries}, in that order (one pass over them). */
    public static List<Expected> getBlobsV2Prefixes(int id, List<BlobEntry> entries) {
        List<Expected> bodies = new ArrayList<>(entries.size());
        MessageDigest sha256 = HttpConnection.sha256();
        long length = update(sha256, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":[");
        for (int i = 0; i < entries.size(); i++) {
            BlobEntry entry = entries.get(i);
            length += update(sha256, i == 0 ? "" : ",");
            if (entry == null) {
                length += update(sha256, "null");
            } else {
                length += update(sha256, "{\"blob\":\"0x" + HEX.formatHex(entry.blob()) + "\",\"proofs\":[");
                byte[] proofs = entry.cellProofs();
                for (int p = 0; p < proofs.length / 48; p++) {
                    length += update(
                            sha256, (p == 0 ? "" : ",") + "\"0x" + HEX.formatHex(proofs, p * 48, (p + 1) * 48) + "\"");
                }
                length += update(sha256, "]}");
            }
            MessageDigest closed = copy(sha256);
            bodies.add(new Expected(length + update(closed, "]}"), closed.digest()));
        }
        return bodies;
    }

    private static MessageDigest copy(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code BlobsV2Response} of {@code POST /engine/v1/blobs/v2} (every entry available): {@code List[BlobV2Entry]},
     * each {@code BlobV2Entry{available: true, BlobAndProofV2{blob, proofs: List[Bytes48]}}}; SSZ offsets are 4-byte
     * little-endian, from the start of the enclosing container or list.
     */
    public static Expected sszBlobsV2(List<BlobEntry> entries) {
        MessageDigest sha256 = HttpConnection.sha256();
        long length = update(sha256, le32(4)); // the response's one field, a list, right after its offset
        long offset = 4L * entries.size();
        for (BlobEntry entry : entries) {
            length += update(sha256, le32(offset));
            offset += 1 + 4 + entry.blob().length + 4 + entry.cellProofs().length;
        }
        for (BlobEntry entry : entries) {
            length += update(sha256, new byte[] {1});
            length += update(sha256, le32(1 + 4)); // BlobAndProofV2 after available and this offset
            length += update(sha256, entry.blob());
            length += update(sha256, le32(entry.blob().length + 4)); // the proofs after blob and this offset
            length += update(sha256, entry.cellProofs());
        }
        return new Expected(length, sha256.digest());
    }

    private static long update(MessageDigest sha256, String ascii) {
        return update(sha256, ascii.getBytes(StandardCharsets.US_ASCII));
    }

    private static long update(MessageDigest sha256, byte[] bytes) {
        sha256.update(bytes);
        return bytes.length;
    }

    private static byte[] le32(long value) {
        return ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(Math.toIntExact(value))
                .array();
    }
}
