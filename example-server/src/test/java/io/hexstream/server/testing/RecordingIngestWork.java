package io.hexstream.server.testing;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.tx.BlobTransaction;
import io.hexstream.server.tx.BlobTransactionVerifier;
import io.hexstream.server.tx.IngestWork;
import io.hexstream.server.tx.TransactionRefusedException;
import java.util.ArrayList;
import java.util.List;

/**
 * The standard ingest steps ({@link IngestWork#STANDARD}), each recorded as it starts, with the thread it runs on as
 * the step itself sees it.
 */
public final class RecordingIngestWork implements IngestWork {
    /** The steps: decoding, and the three that run KZG. */
    public enum Step {
        DECODE,
        VERIFY,
        EXTENSION_CELLS,
        CELL_PROOFS
    }

    /** One step and the name of the thread it ran on. */
    public record Call(Step step, String thread) {}

    private final List<Call> calls = new ArrayList<>();

    /** The steps so far, in order. */
    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    /** How many times {@code step} ran so far. */
    public synchronized long count(Step step) {
        return calls.stream().filter(call -> call.step() == step).count();
    }

    private synchronized void record(Step step) {
        calls.add(new Call(step, Thread.currentThread().getName()));
    }

    @Override
    public BlobTransaction decode(byte[] raw) throws TransactionRefusedException {
        record(Step.DECODE);
        return IngestWork.super.decode(raw);
    }

    @Override
    public BlobTransactionVerifier.Verified verify(BlobTransaction tx, ServerMetrics metrics)
            throws TransactionRefusedException {
        record(Step.VERIFY);
        return IngestWork.super.verify(tx, metrics);
    }

    @Override
    public byte[] extensionCells(byte[] blob) {
        record(Step.EXTENSION_CELLS);
        return IngestWork.super.extensionCells(blob);
    }

    @Override
    public BlobEntry withCellProofs(BlobEntry entry) {
        record(Step.CELL_PROOFS);
        return IngestWork.super.withCellProofs(entry);
    }
}
