package io.hexstream.server.cache;

import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

/**
 * The lowercase hex digits (no {@code 0x}) of one pooled {@link BlobEntry}, a buffer per value: the blob's 262,144
 * digits in pooled direct memory, the blob proof's 96 (if the entry has one) and the 128 cell proofs' 12,288 (if it has
 * them) on the heap. The accessors give the buffers themselves, not retained: hand them to
 * {@code JsonBodyBuilder.encodedHex}, which retains what it keeps and never moves their indices. A buffer of its own
 * per value, not slices of one, because a slice of a slice is a new object, while a slice of a pooled buffer is
 * recycled: a response of 128 blobs would otherwise allocate a few hundred. The blob's digits are written as slices, so
 * they live where the socket reads them without a copy; the proofs' are shorter than the codec slices and are copied
 * into the chunks, which from a heap array needs no NIO view of the source (an object per value and response).
 *
 * <p>Cells ({@code engine_getBlobsV4}): cell {@code i < 64} is blob bytes {@code [i * 2048, (i + 1) * 2048)}, so its
 * digits are {@code blob()}'s {@code [i * 4096, (i + 1) * 4096)}. Cells 64 to 127 (the extension) are not held: their
 * digits would double an entry (536,672 bytes instead of 274,528), so that the default 64 MiB would no longer hold a
 * 128-blob request; a V4 result encodes them.
 *
 * <p>Reference-counted through its buffers: the cache holds one reference, a lookup takes one more ({@link #retain()})
 * until the body being built has retained what it uses.
 */
public final class EncodedEntry {
    /** Digits of the blob. */
    static final int BLOB_DIGITS = 2 * BlobSizes.BLOB_SIZE;
    /** Digits of one proof. */
    static final int PROOF_DIGITS = 2 * BlobSizes.PROOF_SIZE;
    /** Digits of the 128 cell proofs. */
    static final int CELL_PROOFS_DIGITS = 2 * BlobSizes.CELL_PROOFS_SIZE;

    private final ByteBuf blob;
    private final ByteBuf blobProof;
    private final ByteBuf cellProofs;

    private EncodedEntry(ByteBuf blob, ByteBuf blobProof, ByteBuf cellProofs) {
        this.blob = blob;
        this.blobProof = blobProof;
        this.cellProofs = cellProofs;
    }

    /** The bytes {@code entry}'s digits take: 262,144, plus 96 for a blob proof, plus 12,288 for cell proofs. */
    static int sizeOf(BlobEntry entry) {
        return BLOB_DIGITS
                + (entry.blobProof() != null ? PROOF_DIGITS : 0)
                + (entry.cellProofs() != null ? CELL_PROOFS_DIGITS : 0);
    }

    /**
     * Encodes {@code entry}'s digits into buffers of exactly {@link #sizeOf} bytes in all: the blob's from
     * {@code allocator}'s direct memory, the proofs' on the heap.
     */
    static EncodedEntry encode(BlobEntry entry, ByteBufAllocator allocator) {
        ByteBuf blobProof = entry.blobProof() != null ? onHeap(entry.blobProof()) : null;
        ByteBuf cellProofs = entry.cellProofs() != null ? onHeap(entry.cellProofs()) : null;
        return new EncodedEntry(direct(entry.blob(), allocator), blobProof, cellProofs);
    }

    private static ByteBuf onHeap(byte[] bytes) {
        byte[] digits = new byte[2 * bytes.length];
        Hex.encode(bytes, 0, bytes.length, digits, 0, false);
        return Unpooled.wrappedBuffer(digits);
    }

    private static ByteBuf direct(byte[] bytes, ByteBufAllocator allocator) {
        ByteBuf digits = allocator.directBuffer(2 * bytes.length, 2 * bytes.length);
        try {
            Hex.encode(bytes, 0, bytes.length, digits, false);
            return digits;
        } catch (RuntimeException | Error e) {
            digits.release();
            throw e;
        }
    }

    /** The blob's 262,144 digits. */
    public ByteBuf blob() {
        return blob;
    }

    /** The blob proof's 96 digits, or {@code null} if the entry has none. */
    public ByteBuf blobProof() {
        return blobProof;
    }

    /** The 128 cell proofs' digits, 96 each back to back, or {@code null} if the entry has none. */
    public ByteBuf cellProofs() {
        return cellProofs;
    }

    /** Bytes held, direct and heap (the buffers' capacities: the allocator may round the blob's up). */
    int bytes() {
        return blob.capacity()
                + (blobProof != null ? blobProof.capacity() : 0)
                + (cellProofs != null ? cellProofs.capacity() : 0);
    }

    void retain() {
        blob.retain();
        if (blobProof != null) {
            blobProof.retain();
        }
        if (cellProofs != null) {
            cellProofs.retain();
        }
    }

    /** Gives back one reference to each buffer: the cache's on eviction, a lookup's once its body is built. */
    public void release() {
        blob.release();
        if (blobProof != null) {
            blobProof.release();
        }
        if (cellProofs != null) {
            cellProofs.release();
        }
    }
}
