package io.hexstream.server.tx;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.kzg.Kzg;
import io.hexstream.server.metrics.ServerMetrics;

/**
 * The costly steps of taking a transaction in, as {@link TransactionIngest} runs them: decoding, the checks with their
 * KZG verification, and the KZG work that completes each entry. Each method does its step as its default says
 * ({@link #STANDARD} is that); a wrapper may watch each step, e.g. on which thread it runs. All of them block for
 * milliseconds to a second: never on an event loop.
 */
public interface IngestWork {
    /** The steps as the defaults do them. */
    IngestWork STANDARD = new IngestWork() {};

    /** {@link BlobTransactionDecoder#decode}: RLP, shape, counts, sizes. */
    default BlobTransaction decode(byte[] raw) throws TransactionRefusedException {
        return BlobTransactionDecoder.decode(raw);
    }

    /** {@link BlobTransactionVerifier#verify}: versioned hashes, signature, KZG proofs (about 30 ms a blob). */
    default BlobTransactionVerifier.Verified verify(BlobTransaction tx, ServerMetrics metrics)
            throws TransactionRefusedException {
        return BlobTransactionVerifier.verify(tx, metrics);
    }

    /** {@link Kzg#extensionCells}: cells 64 to 127 of a blob (a few milliseconds). */
    default byte[] extensionCells(byte[] blob) {
        return Kzg.extensionCells(blob);
    }

    /** {@link Kzg#withCellProofs}: a v0 sidecar's blob converted, with cell proofs and cells (about 0.5 s). */
    default BlobEntry withCellProofs(BlobEntry entry) {
        return Kzg.withCellProofs(entry);
    }
}
