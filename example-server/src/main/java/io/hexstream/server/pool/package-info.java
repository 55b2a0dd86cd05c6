/**
 * The blob pool: {@link io.hexstream.server.pool.DurableBlobPool} owns the in-memory
 * {@link io.hexstream.server.pool.BlobPool} (entries by versioned hash, oldest item evicted first,
 * a short lock for lookups) and its files ({@code BlobStore}: one fsynced file per item, written before
 * the item is added, deleted when it is evicted). The getBlobs methods read it on the event loop;
 * ingestion writes it from the ingest executor. A {@link io.hexstream.server.pool.PoolListener} (the hex
 * cache) is told of each entry entering and leaving it.
 */
package io.hexstream.server.pool;
