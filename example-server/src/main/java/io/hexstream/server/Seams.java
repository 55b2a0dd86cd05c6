package io.hexstream.server;

import io.hexstream.server.pool.StoreFiles;
import io.hexstream.server.tx.IngestWork;

/**
 * Where the server's blocking work meets what lies under it: the pool store's file operations (write, fsync, rename,
 * directory fsync, delete) and the ingest's costly steps (decoding, KZG). {@link #SYSTEM} is what {@code Main} runs; a
 * test puts in their place a wrapper that records or fails them.
 */
public record Seams(StoreFiles storeFiles, IngestWork ingestWork) {
    /** The platform's file operations and the standard ingest steps. */
    public static final Seams SYSTEM = new Seams(StoreFiles.SYSTEM, IngestWork.STANDARD);
}
