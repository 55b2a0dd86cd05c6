package io.hexstream.server.testing;

import io.hexstream.client.BlobSizes;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.tx.TransactionIngest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A small durable pool for fuzz targets: two made-up blobs (random bytes and proofs, not KZG; fixed commitments of
 * {@code 0x11…} and {@code 0x22…}, so their versioned hashes, which the seed corpora use, are the same on every run),
 * stored under a data dir, with the ingestion path in front of it.
 */
public final class FuzzPool {
    /** Pool capacity in blobs: room for a few transactions besides the two. */
    private static final int CAPACITY = 16;

    private final DurableBlobPool pool;
    private final Path dataDir;
    private final TransactionIngest ingest;

    private FuzzPool(DurableBlobPool pool, Path dataDir, TransactionIngest ingest) {
        this.pool = pool;
        this.dataDir = dataDir;
        this.ingest = ingest;
    }

    /** The pool, stored in {@code dataDir} (which should be empty). */
    public static FuzzPool create(Path dataDir) throws IOException {
        DurableBlobPool pool = DurableBlobPool.open(dataDir, CAPACITY, ServerMetrics.NONE);
        Random random = new Random(7);
        for (int b : new int[] {0x11, 0x22}) {
            byte[] blob = new byte[BlobSizes.BLOB_SIZE];
            byte[] blobProof = new byte[BlobSizes.PROOF_SIZE];
            byte[] cellProofs = new byte[BlobSizes.CELL_PROOFS_SIZE];
            random.nextBytes(blob);
            random.nextBytes(blobProof);
            random.nextBytes(cellProofs);
            byte[] commitment = new byte[BlobSizes.COMMITMENT_SIZE];
            Arrays.fill(commitment, (byte) b);
            pool.add(PoolItem.generated(new BlobEntry(blob, commitment, blobProof, cellProofs)));
        }
        return new FuzzPool(
                pool, dataDir, new TransactionIngest(pool, BlobSizes.MAX_BLOBS_PER_TX, false, ServerMetrics.NONE));
    }

    public DurableBlobPool pool() {
        return pool;
    }

    public TransactionIngest ingest() {
        return ingest;
    }

    /** Item keys, versioned hashes and file names, as {@link EngineServerFixture#poolState()}. */
    public List<List<String>> state() {
        return EngineServerFixture.poolState(pool, dataDir);
    }
}
