package io.hexstream.client;

import io.netty.buffer.ByteBuf;

/**
 * The entries of one getBlobs result as a body reader (JSON or SSZ) hands them to the call's {@link BlobsListener}: the
 * buffers of the entry being read, how many entries were available, and when the first was handed over.
 *
 * <p>Ownership: the buffers held ({@link #holdBlob}, {@link #holdProofs}, {@link #holdCells}) are this object's until
 * they are handed over ({@link #blob(int)}, {@link #cells(int, int[])}), then the listener's; {@link #release()}
 * releases those still held (the body failed, or an unavailable entry's). Called on the connection's event loop only.
 */
final class EntryHandover {
    private final BlobsListener listener;
    private final long start;

    private ByteBuf blob;
    private ByteBuf proofs;
    private ByteBuf cells;
    private int available;
    private long toFirstBlob = -1;

    /** @param start {@link System#nanoTime()} when the request was handed to the connection */
    EntryHandover(BlobsListener listener, long start) {
        this.listener = listener;
        this.start = start;
    }

    /** The blob being read, or {@code null}. */
    ByteBuf blob() {
        return blob;
    }

    /** The proofs being read, or {@code null}. */
    ByteBuf proofs() {
        return proofs;
    }

    /** The cells being read, or {@code null}. */
    ByteBuf cells() {
        return cells;
    }

    /** Holds {@code buffer} as the entry's blob, and returns it. */
    ByteBuf holdBlob(ByteBuf buffer) {
        blob = buffer;
        return buffer;
    }

    /** Holds {@code buffer} as the entry's proofs (one, or back to back), and returns it. */
    ByteBuf holdProofs(ByteBuf buffer) {
        proofs = buffer;
        return buffer;
    }

    /** Holds {@code buffer} as the entry's cells, back to back, and returns it. */
    ByteBuf holdCells(ByteBuf buffer) {
        cells = buffer;
        return buffer;
    }

    /** Hands the blob and proofs held over as {@code result[index]}. */
    void blob(int index) {
        BlobAndProofs answer = new BlobAndProofs(blob, proofs);
        blob = null;
        proofs = null;
        handedOver();
        listener.blob(index, answer);
    }

    /** Hands the cells and proofs held over as {@code result[index]}, the cells of {@code indices}. */
    void cells(int index, int[] indices) {
        CellsAndProofs answer = new CellsAndProofs(indices, cells, proofs);
        cells = null;
        proofs = null;
        handedOver();
        listener.cells(index, answer);
    }

    /** Tells the listener the result is {@code null} as a whole. */
    void nullResult() {
        listener.nullResult();
    }

    /** Tells the listener {@code result[index]} is missing. */
    void missing(int index) {
        listener.missing(index);
    }

    /** Releases the buffers held. */
    void release() {
        for (ByteBuf buffer : new ByteBuf[] {blob, proofs, cells}) {
            if (buffer != null) {
                buffer.release();
            }
        }
        blob = null;
        proofs = null;
        cells = null;
    }

    /** The entries handed over (not missing). */
    int available() {
        return available;
    }

    /** Nanoseconds from the start until the first entry was handed over; -1 if none was. */
    long toFirstBlob() {
        return toFirstBlob;
    }

    private void handedOver() {
        available++;
        if (toFirstBlob < 0) {
            toFirstBlob = System.nanoTime() - start;
        }
    }
}
