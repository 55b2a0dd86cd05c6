package io.hexstream.server.engine;

import io.hexstream.client.VersionedHash;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;

/**
 * The pool lookup of every getBlobs call, JSON-RPC ({@link GetBlobs}) or binary SSZ: the entries for the versioned
 * hashes, each kept only if the version can serve it (a blob proof for V1, cell proofs for V2 and V3; V4 keeps every
 * pooled blob, one without cell proofs returning {@code null} cells and proofs), and the metrics told, counting as
 * available only what the version can serve. Never blocks: one short lock for the lookup.
 */
public final class BlobLookup {
    private final DurableBlobPool pool;
    private final ServerMetrics metrics;

    /** @param metrics told, per lookup, the hashes asked for and how many of them the version can serve */
    public BlobLookup(DurableBlobPool pool, ServerMetrics metrics) {
        this.pool = pool;
        this.metrics = metrics;
    }

    /**
     * What the pool holds for {@code hashes}, in their order.
     *
     * @param method the metrics' method label, e.g. {@code engine_getBlobsV2} or {@code ssz_getBlobsV2}
     */
    public Found lookUp(GetBlobs.Version version, VersionedHash[] hashes, String method) {
        BlobEntry[] entries = pool.getAll(hashes);
        int available = 0;
        for (int i = 0; i < entries.length; i++) {
            boolean servable = entries[i] != null
                    && (version == GetBlobs.Version.V1
                            ? entries[i].blobProof() != null
                            : entries[i].cellProofs() != null);
            if (servable) {
                available++;
            } else if (version != GetBlobs.Version.V4) {
                entries[i] = null;
            }
        }
        metrics.blobsLookedUp(method, entries.length, available);
        return new Found(entries, available);
    }

    /**
     * @param entries one per hash asked for, {@code null} where the version cannot serve it (for V4: where the blob is
     *     not pooled)
     * @param available how many the version can serve
     */
    public record Found(BlobEntry[] entries, int available) {
        /** Whether every hash asked for can be served. */
        public boolean all() {
            return available == entries.length;
        }
    }
}
