package io.hexstream.client;

import io.hexstream.codec.json.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The entries of a result as a {@link BlobsListener} takes them, through an {@link EntryHandover}: each value decoded
 * into a pooled direct buffer of its entry, an entry's proofs (and cells) back to back in one buffer, a {@code null}
 * cell and its proof left out. Ownership: the buffers are the handover's until it hands them over. Called on the
 * connection's event loop only.
 */
final class PooledEntries implements EntryValues {
    private final EntryHandover handover;
    private final ByteBufAllocator allocator;
    /**
     * The cell indices asked (V4), ascending: the {@code k}-th element of an entry's arrays is cell
     * {@code selected[k]}.
     */
    private final int[] selected;

    PooledEntries(EntryHandover handover, ByteBufAllocator allocator, int[] selected) {
        this.handover = handover;
        this.allocator = allocator;
        this.selected = selected;
    }

    @Override
    public void nullResult() {
        handover.nullResult();
    }

    @Override
    public void beginResult() {}

    @Override
    public void missing(int index) {
        handover.missing(index);
    }

    @Override
    public void blob(StringValue value) {
        value.hex(handover.holdBlob(buffer(BlobSizes.BLOB_SIZE)), BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE);
    }

    @Override
    public void proof(StringValue value) {
        value.hex(handover.holdProofs(buffer(BlobSizes.PROOF_SIZE)), BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
    }

    @Override
    public void beginProofs(int max) {
        handover.holdProofs(buffer(max * BlobSizes.PROOF_SIZE));
    }

    @Override
    public void beginCells(int max) {
        handover.holdCells(buffer(max * BlobSizes.CELL_SIZE));
    }

    @Override
    public void proof(int k, StringValue value) {
        if (value != null) {
            value.hex(handover.proofs(), BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
        }
    }

    @Override
    public void cell(int k, StringValue value) {
        if (value != null) {
            value.hex(handover.cells(), BlobSizes.CELL_SIZE, BlobSizes.CELL_SIZE);
        }
    }

    @Override
    public void blobEntry(int index) {
        handover.blob(index);
    }

    @Override
    public void cellsEntry(int index, boolean[] present, int count) {
        int answered = 0;
        for (int k = 0; k < count; k++) {
            answered += present[k] ? 1 : 0;
        }
        int[] indices = new int[answered];
        for (int k = 0, i = 0; k < count; k++) {
            if (present[k]) {
                indices[i++] = selected[k];
            }
        }
        handover.cells(index, indices);
    }

    private ByteBuf buffer(int size) {
        return allocator.directBuffer(size, size);
    }
}
