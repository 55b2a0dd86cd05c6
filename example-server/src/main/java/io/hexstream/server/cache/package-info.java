/**
 * The hex cache ({@code --hex-cache-mib}): the digits of pooled blobs and their proofs, encoded once when a blob enters
 * the pool (the blobs' in pooled direct memory, the proofs' on the heap), so that a getBlobs result is written from
 * them, the blobs' as retained slices, instead of being encoded again. {@link io.hexstream.server.cache.HexCache}
 * follows the pool (a {@link io.hexstream.server.pool.PoolListener}) within its byte bound;
 * {@link io.hexstream.server.cache.EncodedEntry} is one blob's digits.
 */
package io.hexstream.server.cache;
