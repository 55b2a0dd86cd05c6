package io.hexstream.server.cache;

import io.hexstream.codec.Hex;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.BlobSizes;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The lowercase hex digits (no {@code 0x}) of one pooled {@link BlobEntry}, in one direct buffer:
 * the blob's 262,144 digits, then the blob proof's 96 (if the entry has one), then the 128 cell
 * proofs' 12,288 (if it has them). The accessors are slices of that buffer, made once, not retained:
 * hand them to {@code JsonBodyBuilder.encodedHex}, which retains what it keeps.
 *
 * <p>Cells ({@code engine_getBlobsV4}): cell {@code i < 64} is blob bytes {@code [i * 2048, (i + 1) * 2048)},
 * so its digits are {@code blob().slice(i * 4096, 4096)}; cells 64 to 127 (the extension) would be
 * encoded after the cell proofs, when the entry has them, and sliced the same way.
 *
 * <p>Reference-counted through its buffer: the cache holds one reference, a lookup takes one more
 * ({@link #retain()}) until the body being built has retained what it uses.
 */
public final class EncodedEntry {
    /** Digits of the blob. */
    static final int BLOB_DIGITS = 2 * BlobSizes.BLOB_SIZE;
    /** Digits of one proof. */
    static final int PROOF_DIGITS = 2 * BlobSizes.PROOF_SIZE;
    /** Digits of the 128 cell proofs. */
    static final int CELL_PROOFS_DIGITS = 2 * BlobSizes.CELL_PROOFS_SIZE;

    private final BlobEntry entry;
    private final ByteBuf digits;
    private final ByteBuf blob;
    private final ByteBuf blobProof;
    private final ByteBuf cellProofs;

    private EncodedEntry(BlobEntry entry, ByteBuf digits) {
        this.entry = entry;
        this.digits = digits;
        this.blob = digits.slice(0, BLOB_DIGITS);
        int at = BLOB_DIGITS;
        this.blobProof = entry.blobProof() != null ? digits.slice(at, PROOF_DIGITS) : null;
        at += entry.blobProof() != null ? PROOF_DIGITS : 0;
        this.cellProofs = entry.cellProofs() != null ? digits.slice(at, CELL_PROOFS_DIGITS) : null;
    }

    /** The bytes {@code entry}'s digits take: 262,144, plus 96 for a blob proof, plus 12,288 for cell proofs. */
    static int sizeOf(BlobEntry entry) {
        return BLOB_DIGITS + (entry.blobProof() != null ? PROOF_DIGITS : 0)
                + (entry.cellProofs() != null ? CELL_PROOFS_DIGITS : 0);
    }

    /** Encodes {@code entry}'s digits into a buffer of exactly {@link #sizeOf} bytes from {@code allocator}. */
    static EncodedEntry encode(BlobEntry entry, ByteBufAllocator allocator) {
        int size = sizeOf(entry);
        ByteBuf digits = allocator.directBuffer(size, size);
        try {
            Hex.encode(entry.blob(), 0, BlobSizes.BLOB_SIZE, digits, false);
            if (entry.blobProof() != null) {
                Hex.encode(entry.blobProof(), 0, BlobSizes.PROOF_SIZE, digits, false);
            }
            if (entry.cellProofs() != null) {
                Hex.encode(entry.cellProofs(), 0, BlobSizes.CELL_PROOFS_SIZE, digits, false);
            }
            return new EncodedEntry(entry, digits);
        } catch (RuntimeException | Error e) {
            digits.release();
            throw e;
        }
    }

    /** The pooled entry these are the digits of (the same instance). */
    public BlobEntry entry() {
        return entry;
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

    /** Bytes of direct memory held. */
    int bytes() {
        return digits.capacity();
    }

    void retain() {
        digits.retain();
    }

    /** Gives back one reference: the cache's on eviction, a lookup's once its body is built. */
    public void release() {
        digits.release();
    }
}
