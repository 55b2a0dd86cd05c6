/**
 * The blob pool: {@link io.hexstream.server.pool.DurableBlobPool} owns the in-memory
 * {@link io.hexstream.server.pool.BlobPool} (entries by versioned hash, oldest item evicted first, a blob kept while
 * any item holds it, a short lock for lookups; what came through a port without JWT bounded to half of it, evicting
 * only its own kind, 16 transactions per sender) and its files ({@code BlobStore}: one fsynced file per item, written
 * before the item is added, deleted when it is evicted; every change on disk through
 * {@link io.hexstream.server.pool.StoreFiles}). Every entry holds its extension cells (cells 64 to 127); items loaded
 * from older {@code HXB2} files get them in the background ({@link io.hexstream.server.pool.CellBackfill}, one item at
 * a time on the ingest executor, the file rewritten as {@code HXB3}). The getBlobs methods read it on the event loop;
 * ingestion writes it from the ingest executor. A {@link io.hexstream.server.pool.PoolListener} (the hex cache) is told
 * of each entry entering and leaving it, and of each entry replaced by the same blob with its extension cells.
 */
package io.hexstream.server.pool;
