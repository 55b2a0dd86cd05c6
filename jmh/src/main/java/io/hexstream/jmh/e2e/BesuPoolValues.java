package io.hexstream.jmh.e2e;

import io.hexstream.jmh.BesuBlobsJson;
import io.hexstream.server.blob.BlobEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Besu-like servers' transaction pool: each pooled blob's {@link BesuBlobsJson.BlobProofBundle} (a {@code Blob} and
 * its {@code KZGProof}s, each proof its own array), made the first time the blob is asked for and held from then on, as
 * Besu's pool holds them; as many as the pool's blobs. Thread-safe.
 */
final class BesuPoolValues {
    private final Map<BlobEntry, BesuBlobsJson.BlobProofBundle> held = new ConcurrentHashMap<>();

    /**
     * {@code EngineGetBlobsV2}'s result ({@link BesuBlobsJson}): {@code null} if any blob is missing or has no cell
     * proofs, else a {@code BlobAndProofV2} per blob, made one after another.
     */
    List<BesuBlobsJson.BlobAndProofV2> blobsAndProofs(List<BlobEntry> entries) {
        List<BesuBlobsJson.BlobProofBundle> bundles = new ArrayList<>(entries.size());
        for (BlobEntry entry : entries) {
            if (entry == null || entry.cellProofs() == null) {
                return null;
            }
            bundles.add(held.computeIfAbsent(entry, e -> BesuBlobsJson.BlobProofBundle.of(e.blob(), e.cellProofs())));
        }
        return BesuBlobsJson.results(bundles);
    }
}
