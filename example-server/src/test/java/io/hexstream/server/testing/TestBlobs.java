package io.hexstream.server.testing;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.kzg.BlobGenerator;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Distinct real-KZG blobs, each with its commitment, blob proof and 128 cell proofs, to build transactions from:
 * generated once (about half a second a blob per core) into {@code target/test-tx-blobs} with the server's own durable
 * pool, and reused by every test class and run. None of them is in {@link EngineServerFixture}'s generated pool.
 */
public final class TestBlobs {
    private static final Path CACHE = ForkDirectories.of("test-tx-blobs");
    private static final long SEED = 0x7E57_B10B5L;
    private static final int CAPACITY = 1024;
    private static List<BlobEntry> cached = List.of();

    private TestBlobs() {}

    /** The first {@code count} cached blobs, generating the missing ones. */
    public static synchronized List<BlobEntry> first(int count) {
        if (cached.size() < count) {
            try {
                DurableBlobPool store = DurableBlobPool.open(CACHE, CAPACITY, ServerMetrics.NONE);
                List<BlobEntry> entries = new ArrayList<>();
                store.hashes().forEach(hash -> entries.add(store.get(hash)));
                if (entries.size() < count) {
                    for (BlobEntry entry : BlobGenerator.generate(count - entries.size(), SEED + entries.size())) {
                        store.add(PoolItem.generated(entry));
                        entries.add(entry);
                    }
                }
                cached = List.copyOf(entries);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cached.subList(0, count);
    }
}
