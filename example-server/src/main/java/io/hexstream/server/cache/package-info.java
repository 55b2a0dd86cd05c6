/**
 * The hex cache ({@code --hex-cache-mib}): each pooled blob's getBlobs element rendered once as JSON when it enters the
 * pool, in pooled direct memory, so that a result is written from it as retained slices instead of being encoded again.
 * {@link io.hexstream.server.cache.HexCache} follows the pool (a {@link io.hexstream.server.pool.PoolListener}) within
 * its byte bound; {@link io.hexstream.server.cache.EncodedEntry} is one blob's element; what the element is, the
 * engine's renderer decides.
 */
package io.hexstream.server.cache;
