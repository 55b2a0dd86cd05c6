/**
 * The {@code probe} subcommand: asks any Engine API endpoint for blobs through the getBlobs client
 * ({@link io.hexstream.server.client}), prints how long each response took to its first byte, its first blob and its
 * last byte, and optionally checks each blob's KZG commitment and proofs ({@link io.hexstream.server.probe.BlobCheck})
 * and writes what it got to files that only ever hold the bytes of a well-formed response
 * ({@link io.hexstream.server.probe.ResponseFiles}), both off the I/O thread
 * ({@link io.hexstream.server.probe.EntryWork}).
 */
package io.hexstream.server.probe;
