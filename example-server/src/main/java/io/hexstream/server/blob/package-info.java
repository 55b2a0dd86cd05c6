/**
 * What a pooled blob is: a {@link io.hexstream.server.blob.BlobEntry} (blob, commitment, blob proof and/or 128 cell
 * proofs) and the {@link io.hexstream.server.blob.PoolItem} it is added and evicted with (a generated blob, or a
 * transaction's blobs), from an {@link io.hexstream.server.blob.Origin}. The values it shares with the client are the
 * client module's: the {@link io.hexstream.client.VersionedHash} a blob is looked up by, the
 * {@link io.hexstream.client.CellIndices} a getBlobsV4 call selects and {@link io.hexstream.client.BlobSizes}, the one
 * place the EIP-4844 and EIP-7594 sizes are written down. Plain immutable data, no I/O, no threads.
 */
package io.hexstream.server.blob;
