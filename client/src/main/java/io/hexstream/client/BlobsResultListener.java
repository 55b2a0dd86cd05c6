package io.hexstream.client;

import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;

/**
 * Checks the {@code result} of a getBlobs response, handed on by a {@link JsonRpcResponseListener}, against its
 * method's entries (execution-apis {@code src/engine}: cancun.md {@code BlobAndProofV1}, osaka.md
 * {@code BlobAndProofV2}, amsterdam.md {@code BlobCellsAndProofsV1}), and hands each value and entry to its
 * {@link EntryValues}: {@code null}, or an array of {@code hashCount} entries, {@code null} ones where the method has
 * them; a blob of 131,072 bytes, V1's one proof, V2's and V3's 128 proofs, V4's cells and proofs of equal count (the
 * cells asked, if known, else as the first entry had), {@code null} at the same places. Members of an entry in any
 * order; members it does not know are skipped whatever their value. Anything else is a {@link ResponseFault}: the entry
 * one past {@code hashCount}, and the element one past its array's most, are refused when they begin.
 *
 * <p>Keeps the entry's counts and which elements are present (two arrays of at most 128, made once); nothing per value.
 */
final class BlobsResultListener implements JsonTokenListener {
    // The member whose value comes next, in an entry.
    private static final int OTHER = 0;
    private static final int BLOB = 1;
    private static final int PROOF = 2;
    private static final int PROOFS = 3;
    private static final int BLOB_CELLS = 4;

    private static final String PER_HASH = " (one per versioned hash asked)";

    private final BlobsMethod method;
    private final int hashCount;
    /** The cells asked, where the request is known (V4 on Netty); else {@code -1}. */
    private final int cellsAsked;

    private final EntryValues values;
    /** The most elements of an entry's {@code proofs} (V2, V3, V4) and {@code blob_cells} array. */
    private final int maxElements;

    private final boolean[] proofPresent;
    private final boolean[] cellPresent;

    private int entries;
    private int depth;
    /** Non-zero while a value of no interest is skipped: the depth of its inside. */
    private int skipDepth;

    private int member;
    /** The entry's array being read (at depth 3): {@link #PROOFS} or {@link #BLOB_CELLS}. */
    private int arrayMember;
    /** The cells each {@code BlobCellsAndProofsV1} holds: as asked, or as the first one had; {@code -1} before. */
    private int cellsPerEntry;

    // The entry being read: which members it had, and how many elements of its arrays.
    private boolean hasBlob;
    private boolean hasProof;
    private boolean hasProofs;
    private boolean hasCells;
    private int proofCount;
    private int cellCount;

    /** @param cellsAsked V4: the cells the request asked for, if known, else {@code -1}; an entry holds that many */
    BlobsResultListener(BlobsMethod method, int hashCount, int cellsAsked, EntryValues values) {
        this.method = method;
        this.hashCount = hashCount;
        this.cellsAsked = cellsAsked;
        this.cellsPerEntry = cellsAsked;
        this.values = values;
        this.maxElements = method.answersCells() && cellsAsked >= 0 ? cellsAsked : BlobSizes.CELLS_PER_EXT_BLOB;
        this.proofPresent = new boolean[maxElements];
        this.cellPresent = method.answersCells() ? new boolean[maxElements] : null;
    }

    // ---------------------------------------------------------------- containers

    @Override
    public void beginObject() {
        if (skipDepth == 0) {
            switch (depth) {
                case 0 -> throw ResponseFault.expected("an array or null", "an object");
                case 1 -> beginEntry();
                case 2 -> skip("an object");
                default -> throw elementFault("an object");
            }
        }
        depth++;
        member = OTHER;
    }

    @Override
    public void beginArray() {
        if (skipDepth == 0) {
            switch (depth) {
                case 0 -> values.beginResult();
                case 1 -> throw entryFault("an array");
                case 2 -> beginEntryArray();
                default -> throw elementFault("an array");
            }
        }
        depth++;
    }

    @Override
    public void endObject() {
        depth--;
        if (skipDepth != 0) {
            skipDepth = depth < skipDepth ? 0 : skipDepth;
        } else if (depth == 1) {
            endEntry();
        }
    }

    @Override
    public void endArray() {
        depth--;
        if (skipDepth != 0) {
            skipDepth = depth < skipDepth ? 0 : skipDepth;
        } else if (depth == 0) {
            if (entries != hashCount) {
                throw new ResponseFault(count(entries, "entry", "entries") + ", expected " + hashCount + PER_HASH);
            }
        } else if (depth == 2
                && arrayMember == PROOFS
                && !method.answersCells()
                && proofCount != BlobSizes.CELLS_PER_EXT_BLOB) {
            throw new ResponseFault(proofCount + " proofs, expected " + BlobSizes.CELLS_PER_EXT_BLOB);
        }
    }

    /** A value of a member the entry does not have: skipped; of one it has: a fault. */
    private void skip(String found) {
        if (member != OTHER) {
            throw memberFault(found);
        }
        skipDepth = depth + 1;
    }

    // ---------------------------------------------------------------- names and scalars

    @Override
    public void name(CharSequence name) {
        if (skipDepth != 0 || depth != 2) {
            return;
        }
        if (method.answersCells()) {
            member = is(name, "blob_cells") ? BLOB_CELLS : is(name, "proofs") ? PROOFS : OTHER;
        } else if (is(name, "blob")) {
            member = BLOB;
        } else {
            member = method == BlobsMethod.V1
                    ? (is(name, "proof") ? PROOF : OTHER)
                    : (is(name, "proofs") ? PROOFS : OTHER);
        }
    }

    @Override
    public void stringStart(StringValue value) {
        if (skipDepth != 0) {
            value.skip();
            return;
        }
        switch (depth) {
            case 0 -> throw ResponseFault.expected("an array or null", "a string");
            case 1 -> throw entryFault("a string");
            case 2 -> memberString(value);
            default -> element(value);
        }
    }

    @Override
    public void number(CharSequence number) {
        scalar(number.toString());
    }

    @Override
    public void bool(boolean value) {
        scalar(Boolean.toString(value));
    }

    @Override
    public void nullValue() {
        if (skipDepth != 0) {
            return;
        }
        if (depth == 0) {
            values.nullResult();
        } else if (depth == 1 && method.nullEntries()) {
            values.missing(nextEntry());
        } else if (depth == 3 && method.answersCells()) {
            element(null);
        } else {
            scalar("null");
        }
    }

    /**
     * A number, {@code true}, {@code false} or an unexpected {@code null}: only a member the entry lacks may hold it.
     */
    private void scalar(String found) {
        if (skipDepth != 0) {
            return;
        }
        switch (depth) {
            case 0 -> throw ResponseFault.expected("an array or null", found);
            case 1 -> throw entryFault(found);
            case 2 -> {
                if (member != OTHER) {
                    throw memberFault(found);
                }
            }
            default -> throw elementFault(found);
        }
    }

    // ---------------------------------------------------------------- entries

    private void beginEntry() {
        nextEntry();
        hasBlob = false;
        hasProof = false;
        hasProofs = false;
        hasCells = false;
    }

    /** The index of the entry beginning; refused one past the versioned hashes asked, before it is read. */
    private int nextEntry() {
        if (entries == hashCount) {
            throw new ResponseFault("more than " + count(hashCount, "entry", "entries") + PER_HASH);
        }
        return entries++;
    }

    private void memberString(StringValue value) {
        if (member == BLOB) {
            hasBlob = once(hasBlob, "blob");
            values.blob(value);
        } else if (member == PROOF) {
            hasProof = once(hasProof, "proof");
            values.proof(value);
        } else if (member == OTHER) {
            value.skip();
        } else {
            throw memberFault("a string");
        }
    }

    private void beginEntryArray() {
        if (member == PROOFS) {
            hasProofs = once(hasProofs, "proofs");
            proofCount = 0;
            values.beginProofs(maxElements);
        } else if (member == BLOB_CELLS) {
            hasCells = once(hasCells, "blob_cells");
            cellCount = 0;
            values.beginCells(maxElements);
        } else {
            skip("an array");
            return;
        }
        arrayMember = member;
    }

    /** The next element of the entry's array, {@code null} for a {@code null} element; refused past the most. */
    private void element(StringValue value) {
        boolean isProof = arrayMember == PROOFS;
        int k = isProof ? proofCount++ : cellCount++;
        if (k == maxElements) {
            throw new ResponseFault("more than " + maxElements + (isProof ? " proofs" : " cells"));
        }
        if (isProof) {
            proofPresent[k] = value != null;
            values.proof(k, value);
        } else {
            cellPresent[k] = value != null;
            values.cell(k, value);
        }
    }

    private void endEntry() {
        int index = entries - 1;
        if (method.answersCells()) {
            checkCells();
            values.cellsEntry(index, cellPresent, cellCount);
        } else {
            boolean hasProofPart = method == BlobsMethod.V1 ? hasProof : hasProofs;
            if (!hasBlob || !hasProofPart) {
                throw new ResponseFault(method.entryName() + " without "
                        + (!hasBlob ? "blob" : method == BlobsMethod.V1 ? "proof" : "proofs"));
            }
            values.blobEntry(index);
        }
    }

    /** A {@code BlobCellsAndProofsV1}: both arrays, as long as each other and as the entries', nulls paired. */
    private void checkCells() {
        if (!hasCells || !hasProofs) {
            throw new ResponseFault(method.entryName() + " without " + (!hasCells ? "blob_cells" : "proofs"));
        }
        if (cellCount != proofCount) {
            throw new ResponseFault(count(cellCount, "cell", "cells") + " but " + count(proofCount, "proof", "proofs"));
        }
        if (cellsPerEntry >= 0 && cellCount != cellsPerEntry) {
            throw new ResponseFault(count(cellCount, "cell", "cells") + ", expected " + cellsPerEntry
                    + (cellsAsked >= 0 ? " (the cells asked)" : " (as the entries before)"));
        }
        cellsPerEntry = cellCount;
        for (int k = 0; k < cellCount; k++) {
            if (cellPresent[k] != proofPresent[k]) {
                throw new ResponseFault("cell " + k + " is " + (cellPresent[k] ? "present" : "null") + " but its proof "
                        + (proofPresent[k] ? "present" : "null"));
            }
        }
    }

    // ---------------------------------------------------------------- faults

    private ResponseFault entryFault(String found) {
        return ResponseFault.expected(
                "a " + method.entryName() + " object" + (method.nullEntries() ? " or null" : ""), found);
    }

    private ResponseFault memberFault(String found) {
        return ResponseFault.expected(member == BLOB || member == PROOF ? "a hex string" : "an array", found);
    }

    private ResponseFault elementFault(String found) {
        return ResponseFault.expected("a hex string" + (method.answersCells() ? " or null" : ""), found);
    }

    /** {@code 1 entry}, {@code 2 entries}. */
    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static boolean once(boolean seen, String name) {
        if (seen) {
            throw new ResponseFault("duplicate member " + name);
        }
        return true;
    }

    private static boolean is(CharSequence text, String expected) {
        return expected.contentEquals(text);
    }
}
