package io.hexstream.client.testing;

import io.hexstream.client.BlobAndProofs;
import io.hexstream.client.BlobsListener;
import io.hexstream.client.CellsAndProofs;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link BlobsListener} that copies each entry's bytes and releases its buffers, and notes what it was told
 * ({@code blob 0}, {@code cells 1 [0, 70]}, {@code missing 2}, {@code null}); read once the call's future has
 * completed.
 */
public final class CollectedEntries implements BlobsListener {
    /** The blobs (or the cells of an entry, back to back) handed over, in order. */
    public final List<byte[]> blobs = new ArrayList<>();
    /** The proofs of each entry handed over, back to back, in order. */
    public final List<byte[]> proofs = new ArrayList<>();
    /** What the listener was told, in order. */
    public final List<String> told = new ArrayList<>();

    @Override
    public void blob(int index, BlobAndProofs entry) {
        try {
            told.add("blob " + index);
            blobs.add(ByteBufUtil.getBytes(entry.blob()));
            proofs.add(ByteBufUtil.getBytes(entry.proofs()));
        } finally {
            entry.release();
        }
    }

    @Override
    public void cells(int index, CellsAndProofs entry) {
        try {
            told.add("cells " + index + " " + Arrays.toString(entry.indices()));
            blobs.add(ByteBufUtil.getBytes(entry.cells()));
            proofs.add(ByteBufUtil.getBytes(entry.proofs()));
        } finally {
            entry.release();
        }
    }

    @Override
    public void missing(int index) {
        told.add("missing " + index);
    }

    @Override
    public void nullResult() {
        told.add("null");
    }
}
