package io.hexstream.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.Arrays;
import java.util.Locale;

/**
 * Reads one {@code BlobsV1Response} to {@code BlobsV4Response} body (execution-apis #793, {@code refactor-ssz.md},
 * "{@code POST /blobs/v1}" … "{@code /v4}") as it arrives, fed chunks split anywhere: the offsets into a bounded
 * scratch (at most one offset table, 512 bytes), blobs, cells and proofs straight into pooled direct buffers of their
 * exact size, each entry handed to the {@link BlobsListener} as soon as its last byte is in. Layouts (n hashes asked,
 * offsets {@code uint32} little-endian):
 *
 * <pre>
 * V1      4 ‖ n × (available 1 ‖ blob 131,072 ‖ proof 48)                 (zeros when unavailable)
 * V2, V3  4 ‖ n offsets ‖ n × (available 1 ‖ 5 ‖ blob ‖ 131,076 ‖ proofs)  (128 proofs; none when unavailable)
 * V4      4 ‖ n offsets ‖ n × (available 1 ‖ 5 ‖ 8 ‖ cells' end ‖ 128 slot offsets ‖ cells ‖ 128 slot offsets
 *         ‖ proofs)                                                       (a slot holds one element or none)
 * </pre>
 *
 * Every offset is checked against the layout, and the body must end with the last entry: anything else fails with a
 * {@link BadResponseException} naming the field and the byte, e.g. {@code entries[3].contents: offset 6, expected 5 at
 * byte 393,390}.
 *
 * <p>Ownership: the buffers of the entry being read are released here if the body fails; those handed over are the
 * listener's. Not thread-safe: one response's, on the connection's event loop.
 */
final class SszBlobsReader {
    private static final int OFFSET = 4;
    private static final int ENTRY_FIXED = 1 + OFFSET;
    private static final int PROOFS_OFFSET = BlobSizes.BLOB_SIZE + OFFSET;
    private static final int SLOTS = BlobSizes.CELLS_PER_EXT_BLOB;
    private static final int SLOT_OFFSETS = SLOTS * OFFSET;

    private final BlobsMethod method;
    private final int count;
    private final boolean[] selected = new boolean[SLOTS];
    private final ByteBufAllocator allocator;
    /** Offsets, the available byte: at most one offset table (128 × 4 bytes, or 4 a hash asked for beyond 128). */
    private final byte[] scratch;

    private int filled;
    /** Where the bytes needed go: a buffer, else the scratch (or nowhere, if {@link #skip}). */
    private ByteBuf into;

    private boolean skip;
    private int need;
    private Runnable then;
    private String field = "entries";
    private long position;
    private boolean finished;

    private int[] entryOffsets;
    private int entry;
    private boolean available;
    private long entryStart;
    private boolean[] present;
    private int answered;

    private final EntryHandover handover;

    /** @param start {@link System#nanoTime()} when the request was handed to the connection */
    SszBlobsReader(GetBlobsCall call, BlobsListener listener, ByteBufAllocator allocator, long start) {
        this.method = call.method();
        this.count = call.hashes().size();
        this.scratch = new byte[Math.max(SLOT_OFFSETS, count * OFFSET)];
        for (int cell : call.selectedCells()) {
            selected[cell] = true;
        }
        this.allocator = allocator;
        this.handover = new EntryHandover(listener, start);
        scratch(OFFSET, this::listOffset);
    }

    /** Reads {@code chunk}'s readable bytes (it stays the caller's). */
    void feed(ByteBuf chunk) {
        while (chunk.isReadable()) {
            if (finished) {
                throw fault("bytes after the last entry");
            }
            int n = Math.min(need, chunk.readableBytes());
            if (into != null) {
                chunk.readBytes(into, n);
            } else if (skip) {
                chunk.skipBytes(n);
            } else {
                chunk.readBytes(scratch, filled, n);
                filled += n;
            }
            need -= n;
            position += n;
            if (need == 0) {
                Runnable step = then;
                then = null;
                step.run();
            }
        }
    }

    /** The body ended: it must have ended with the last entry. */
    void end() {
        if (!finished) {
            throw fault("the body ended " + need + " bytes short of this field");
        }
    }

    /** Releases the buffers of the entry being read (the body failed). */
    void release() {
        handover.release();
    }

    /** The entries handed over that are not unavailable. */
    int available() {
        return handover.available();
    }

    /** Nanoseconds from the start until the first available entry was handed over; -1 if none was. */
    long toFirstBlob() {
        return handover.toFirstBlob();
    }

    /** The body bytes read. */
    long bodyBytes() {
        return position;
    }

    // ---------------------------------------------------------------- what is needed next

    private void scratch(int n, Runnable next) {
        need(n, null, false, next);
    }

    private void into(ByteBuf buffer, int n, Runnable next) {
        need(n, buffer, false, next);
    }

    private void skip(int n, Runnable next) {
        need(n, null, true, next);
    }

    private void need(int n, ByteBuf buffer, boolean skipping, Runnable next) {
        into = buffer;
        skip = skipping;
        filled = 0;
        if (n == 0) {
            next.run();
        } else {
            need = n;
            then = next;
        }
    }

    private long offset(int at) {
        return (scratch[at] & 0xFFL)
                | (scratch[at + 1] & 0xFFL) << 8
                | (scratch[at + 2] & 0xFFL) << 16
                | (scratch[at + 3] & 0xFFL) << 24;
    }

    /** The offset just read (the last 4 bytes in the scratch) must be {@code expected}. */
    private void expectOffset(int at, long expected) {
        long offset = offset(at);
        if (offset != expected) {
            position -= filled - at;
            throw fault("offset " + offset + ", expected " + expected);
        }
    }

    // ---------------------------------------------------------------- the list

    private void listOffset() {
        expectOffset(0, OFFSET);
        if (count == 0) {
            finished = true;
        } else if (method == BlobsMethod.V1) {
            entry(0);
        } else {
            scratch(count * OFFSET, this::entryOffsets);
        }
    }

    private void entryOffsets() {
        field = "entries offsets";
        expectOffset(0, (long) count * OFFSET);
        entryOffsets = new int[count];
        for (int k = 0; k < count; k++) {
            long offset = offset(k * OFFSET);
            if (k > 0 && offset < entryOffsets[k - 1] + ENTRY_FIXED) {
                position -= filled - k * OFFSET;
                field = "entries offsets[" + k + "]";
                throw fault("offset " + offset + " before the end of entry " + (k - 1));
            }
            entryOffsets[k] = (int) Math.min(offset, Integer.MAX_VALUE);
        }
        entry(0);
    }

    private void entry(int k) {
        entry = k;
        field = "entries[" + k + "]";
        if (entryOffsets != null && position - OFFSET != entryOffsets[k]) {
            throw fault("begins at list offset " + (position - OFFSET) + ", its offset says " + entryOffsets[k]);
        }
        entryStart = position;
        scratch(method == BlobsMethod.V1 ? 1 : ENTRY_FIXED, this::entryFixed);
    }

    private void entryFixed() {
        int flag = scratch[0] & 0xFF;
        if (flag > 1) {
            position -= filled;
            field += ".available";
            throw fault("not a Boolean: " + flag);
        }
        available = flag == 1;
        if (method == BlobsMethod.V1) {
            blobV1();
            return;
        }
        field += ".contents";
        expectOffset(1, ENTRY_FIXED);
        if (method == BlobsMethod.V4) {
            scratch(2 * OFFSET, this::cellsOffsets);
        } else {
            blobV2();
        }
    }

    private void entryDone() {
        if (entry + 1 < count) {
            entry(entry + 1);
        } else {
            field = "entries";
            finished = true;
        }
    }

    // ---------------------------------------------------------------- V1 to V3

    private void blobV1() {
        if (!available) {
            skip(BlobSizes.BLOB_SIZE + BlobSizes.PROOF_SIZE, this::missing);
            return;
        }
        ByteBuf blob = handover.holdBlob(allocator.directBuffer(BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE));
        ByteBuf proofs = handover.holdProofs(allocator.directBuffer(BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE));
        field = "entries[" + entry + "].contents.blob";
        into(blob, BlobSizes.BLOB_SIZE, () -> {
            field = "entries[" + entry + "].contents.proof";
            into(proofs, BlobSizes.PROOF_SIZE, this::blobAndProofs);
        });
    }

    private void blobV2() {
        String contents = field;
        field = contents + ".blob";
        Runnable proofsOffset = () -> {
            field = contents + ".proofs";
            scratch(OFFSET, this::proofsV2);
        };
        if (available) {
            into(
                    handover.holdBlob(allocator.directBuffer(BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE)),
                    BlobSizes.BLOB_SIZE,
                    proofsOffset);
        } else {
            skip(BlobSizes.BLOB_SIZE, proofsOffset);
        }
    }

    private void proofsV2() {
        expectOffset(0, PROOFS_OFFSET);
        int size = available ? BlobSizes.CELL_PROOFS_SIZE : 0;
        if (entry + 1 < count) {
            long expected = entryOffsets[entry + 1] - (entryStart - OFFSET) - ENTRY_FIXED - PROOFS_OFFSET;
            if (expected != size) {
                throw fault((available ? "" : "unavailable, ") + expected + " bytes of proofs by the offsets, expected "
                        + size);
            }
        }
        if (!available) {
            missing();
            return;
        }
        into(handover.holdProofs(allocator.directBuffer(size, size)), size, this::blobAndProofs);
    }

    private void blobAndProofs() {
        handover.blob(entry);
        entryDone();
    }

    private void missing() {
        handover.missing(entry);
        entryDone();
    }

    // ---------------------------------------------------------------- V4

    private void cellsOffsets() {
        expectOffset(0, 2 * OFFSET);
        long cellsEnd = offset(OFFSET);
        field = "entries[" + entry + "].contents.blob_cells";
        scratch(SLOT_OFFSETS, () -> cellSlots(cellsEnd - 2 * OFFSET));
    }

    /** The cells' slot offsets read; {@code listBytes} is the cell list's length by the container's offsets. */
    private void cellSlots(long listBytes) {
        present = slots(listBytes, BlobSizes.CELL_SIZE);
        ByteBuf cells = handover.holdCells(
                allocator.directBuffer(answered * BlobSizes.CELL_SIZE, answered * BlobSizes.CELL_SIZE));
        into(cells, answered * BlobSizes.CELL_SIZE, () -> {
            field = "entries[" + entry + "].contents.proofs";
            scratch(SLOT_OFFSETS, this::proofSlots);
        });
    }

    private void proofSlots() {
        boolean[] cellsPresent = present;
        int cellsAnswered = answered;
        long listBytes = entry + 1 < count
                ? entryOffsets[entry + 1] - (position - OFFSET) + SLOT_OFFSETS
                : SLOT_OFFSETS + (long) cellsAnswered * BlobSizes.PROOF_SIZE;
        boolean[] proofsPresent = slots(listBytes, BlobSizes.PROOF_SIZE);
        if (!Arrays.equals(cellsPresent, proofsPresent)) {
            throw fault("the proofs answered are not for the cells answered");
        }
        if (!available && cellsAnswered > 0) {
            throw fault("unavailable, with " + cellsAnswered + " cells");
        }
        ByteBuf proofs = handover.holdProofs(
                allocator.directBuffer(answered * BlobSizes.PROOF_SIZE, answered * BlobSizes.PROOF_SIZE));
        into(proofs, answered * BlobSizes.PROOF_SIZE, this::cellsAndProofs);
    }

    /**
     * The slot offsets in the scratch of a {@code List[Optional[T], 128]} of {@code listBytes}: which slots hold an
     * element of {@code size} bytes (each must hold one or none, and only a selected cell one); sets {@link #answered}.
     */
    private boolean[] slots(long listBytes, int size) {
        boolean[] holds = new boolean[SLOTS];
        answered = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            long offset = offset(slot * OFFSET);
            long end = slot + 1 < SLOTS ? offset((slot + 1) * OFFSET) : listBytes;
            if (slot == 0 && offset != SLOT_OFFSETS || end - offset != 0 && end - offset != size) {
                position -= filled - slot * OFFSET;
                throw fault("slot " + slot + ": offset " + offset + " to " + end + ", not 0 or " + size + " bytes");
            }
            if (end - offset == size) {
                if (!selected[slot]) {
                    position -= filled - slot * OFFSET;
                    throw fault("slot " + slot + " holds a value, and cell " + slot + " was not asked for");
                }
                holds[slot] = true;
                answered++;
            }
        }
        return holds;
    }

    private void cellsAndProofs() {
        if (!available) {
            release();
            missing();
            return;
        }
        int[] indices = new int[answered];
        for (int slot = 0, k = 0; slot < SLOTS; slot++) {
            if (present[slot]) {
                indices[k++] = slot;
            }
        }
        handover.cells(entry, indices);
        entryDone();
    }

    private BadResponseException fault(String fault) {
        return new BadResponseException(
                field + ": " + fault + " at byte " + String.format(Locale.ROOT, "%,d", position));
    }
}
