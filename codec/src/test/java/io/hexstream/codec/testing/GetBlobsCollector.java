package io.hexstream.codec.testing;

import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import io.hexstream.codec.testing.BlobFixtures.Entry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/**
 * A getBlobsV2 result read as tokens: each entry's blob decoded into a pooled direct buffer, its proofs into an array
 * by their index ({@link #byIndex()}) or appended to a pooled direct buffer ({@link #appended()}), both copied out into
 * an {@link Entry} and the buffers released when the entry ends; {@code null} entries kept. {@link #release()} frees
 * what an unfinished entry holds.
 */
public final class GetBlobsCollector implements JsonTokenListener {
    private final boolean proofsByIndex;
    private final List<Entry> entries = new ArrayList<>();
    private Runnable atEntryEnd = () -> {};
    private ByteBuf blob;
    private ByteBuf proofBuffer;
    private byte[] proofs;
    private int depth;

    private GetBlobsCollector(boolean proofsByIndex) {
        this.proofsByIndex = proofsByIndex;
    }

    /** Proofs through {@code StringValue.hex(byte[], offset, …)}, each at its index. */
    public static GetBlobsCollector byIndex() {
        return new GetBlobsCollector(true);
    }

    /** Proofs through {@code StringValue.hex(ByteBuf, …)}, appended in order. */
    public static GetBlobsCollector appended() {
        return new GetBlobsCollector(false);
    }

    /** Runs {@code action} at the end of each entry, once it is collected (e.g. a consumer pausing its reader). */
    public GetBlobsCollector atEntryEnd(Runnable action) {
        this.atEntryEnd = action;
        return this;
    }

    /** The entries read so far, {@code null} for a {@code null} entry. */
    public List<Entry> entries() {
        return entries;
    }

    @Override
    public void beginObject() {
        if (++depth == 3) {
            blob = PooledByteBufAllocator.DEFAULT.directBuffer(BlobFixtures.BLOB_SIZE);
            int proofsSize = BlobFixtures.CELL_PROOFS * BlobFixtures.PROOF_SIZE;
            if (proofsByIndex) {
                proofs = new byte[proofsSize];
            } else {
                proofBuffer = PooledByteBufAllocator.DEFAULT.directBuffer(proofsSize);
            }
        }
    }

    @Override
    public void endObject() {
        if (depth-- != 3) {
            return;
        }
        byte[] blobBytes = new byte[blob.readableBytes()];
        blob.readBytes(blobBytes);
        byte[] proofBytes = proofs;
        if (!proofsByIndex) {
            proofBytes = new byte[proofBuffer.readableBytes()];
            proofBuffer.readBytes(proofBytes);
        }
        release();
        entries.add(new Entry(blobBytes, proofBytes));
        atEntryEnd.run();
    }

    @Override
    public void beginArray() {
        depth++;
    }

    @Override
    public void endArray() {
        depth--;
    }

    @Override
    public void nullValue() {
        if (depth == 2) {
            entries.add(null);
        }
    }

    @Override
    public void stringStart(StringValue value) {
        int size = BlobFixtures.PROOF_SIZE;
        if (depth == 3 && "blob".contentEquals(value.name())) {
            value.hex(blob, BlobFixtures.BLOB_SIZE, BlobFixtures.BLOB_SIZE);
        } else if (depth == 4 && proofsByIndex && value.index() >= 0) {
            value.hex(proofs, value.index() * size, size, size);
        } else if (depth == 4 && !proofsByIndex) {
            value.hex(proofBuffer, size, size);
        }
    }

    /** Releases the buffers of an entry not finished. */
    public void release() {
        if (blob != null) {
            blob.release();
            blob = null;
        }
        if (proofBuffer != null) {
            proofBuffer.release();
            proofBuffer = null;
        }
    }
}
