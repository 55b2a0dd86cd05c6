/**
 * Blob transactions (EIP-4844 type 3) in their two network forms (EIP-4844 blob proofs, EIP-7594 cell proofs):
 * {@link io.hexstream.server.tx.BlobTransactionDecoder} (RLP by web3j, shape, counts, sizes),
 * {@link io.hexstream.server.tx.BlobTransactionVerifier} (versioned hashes, signature, KZG) and
 * {@link io.hexstream.server.tx.TransactionIngest}, which runs the checks cheapest first, gives every entry its
 * extension cells (and, converting a v0 sidecar after Osaka, its cell proofs) and adds an accepted transaction to the
 * durable pool. Everything here may block; the dispatcher runs it on the ingest executor.
 */
package io.hexstream.server.tx;
