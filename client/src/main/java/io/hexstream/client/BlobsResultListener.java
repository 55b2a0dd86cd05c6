package io.hexstream.client;

import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Reads the {@code result} of a getBlobs response, handed on by a {@link JsonRpcResponseListener}: {@code null}, or an
 * array of at most {@code hashCount} entries of one {@link EntryShape}, each hex value decoded straight into a new
 * {@code byte[]} of its exact size. At each entry's closing brace its parts are handed to the entry function and its
 * answer kept, in order; {@code null} entries, where the method has them, are kept as {@code null}. Members of an entry
 * in any order; members it does not know are skipped whatever their value. Anything else is a {@link ResponseFault}:
 * the entry one past {@code hashCount} is refused when it begins.
 *
 * <p>Allocates the {@code byte[]}s it hands over, one array of references per entry array and the list of answers;
 * nothing per value besides.
 *
 * @param <T> what the entry function makes of an entry
 */
final class BlobsResultListener<T> implements JsonTokenListener {
    // The member whose value comes next, in an entry.
    private static final int OTHER = 0;
    private static final int BLOB = 1;
    private static final int PROOF = 2;
    private static final int PROOFS = 3;
    private static final int BLOB_CELLS = 4;

    private static final String PER_HASH = " (one per versioned hash asked)";

    private final EntryShape shape;
    private final int hashCount;
    /** Takes the blob or cells (first) and the proof or proofs (second), as {@link GetBlobsResponses} typed it. */
    private final BiFunction<Object, Object, T> entry;

    private List<T> entries;
    private int depth;
    /** Non-zero while a value of no interest is skipped: the depth of its inside. */
    private int skipDepth;

    private int member;
    /** The entry's array being read (at depth 3): {@link #PROOFS} or {@link #BLOB_CELLS}. */
    private int arrayMember;
    /** The cells each {@code BlobCellsAndProofsV1} holds, as the first one had; {@code -1} before. */
    private int cellsPerEntry = -1;

    // The entry being read.
    private byte[] blob;
    private byte[] proof;
    private byte[][] proofs;
    private int proofCount;
    private byte[][] cells;
    private int cellCount;

    BlobsResultListener(EntryShape shape, int hashCount, BiFunction<Object, Object, T> entry) {
        this.shape = shape;
        this.hashCount = hashCount;
        this.entry = entry;
    }

    /** The answers, one per entry, in order; {@code null} for a {@code null} result. After the document has ended. */
    List<T> entries() {
        return entries;
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
                case 0 -> entries = new ArrayList<>(Math.min(hashCount, 1024));
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
            if (entries.size() != hashCount) {
                throw new ResponseFault(
                        count(entries.size(), "entry", "entries") + ", expected " + hashCount + PER_HASH);
            }
        } else if (depth == 2 && arrayMember == PROOFS && !shape.cells() && proofCount != proofs.length) {
            throw new ResponseFault(proofCount + " proofs, expected " + proofs.length);
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
        if (shape.cells()) {
            member = is(name, "blob_cells") ? BLOB_CELLS : is(name, "proofs") ? PROOFS : OTHER;
        } else if (is(name, "blob")) {
            member = BLOB;
        } else {
            member = shape == EntryShape.V1
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
            default -> elementString(value);
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
            entries = null; // a null result
        } else if (depth == 1 && shape.nullEntries) {
            checkRoom();
            entries.add(null);
        } else if (depth == 3 && shape.cells()) {
            element(false);
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
        checkRoom();
        blob = null;
        proof = null;
        proofs = null;
        cells = null;
    }

    /** Refuses an entry one past the versioned hashes asked, before reading it. */
    private void checkRoom() {
        if (entries.size() == hashCount) {
            throw new ResponseFault("more than " + count(hashCount, "entry", "entries") + PER_HASH);
        }
    }

    private void memberString(StringValue value) {
        if (member == BLOB) {
            once(blob != null, "blob");
            blob = new byte[BlobSizes.BLOB_SIZE];
            value.hex(blob, 0, BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE);
        } else if (member == PROOF) {
            once(proof != null, "proof");
            proof = new byte[BlobSizes.PROOF_SIZE];
            value.hex(proof, 0, BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
        } else if (member == OTHER) {
            value.skip();
        } else {
            throw memberFault("a string");
        }
    }

    private void beginEntryArray() {
        if (member == PROOFS) {
            once(proofs != null, "proofs");
            proofs = new byte[BlobSizes.CELLS_PER_EXT_BLOB][];
            proofCount = 0;
        } else if (member == BLOB_CELLS) {
            once(cells != null, "blob_cells");
            cells = new byte[BlobSizes.CELLS_PER_EXT_BLOB][];
            cellCount = 0;
        } else {
            skip("an array");
            return;
        }
        arrayMember = member;
    }

    private void elementString(StringValue value) {
        byte[] element = element(true);
        value.hex(element, 0, element.length, element.length);
    }

    /** The next element of the entry's array, a new {@code byte[]} of its size if {@code present}; else null. */
    private byte[] element(boolean present) {
        boolean isProof = arrayMember == PROOFS;
        byte[][] elements = isProof ? proofs : cells;
        int k = isProof ? proofCount++ : cellCount++;
        if (k == elements.length) {
            throw new ResponseFault("more than " + elements.length + (isProof ? " proofs" : " cells"));
        }
        byte[] element = present ? new byte[isProof ? BlobSizes.PROOF_SIZE : BlobSizes.CELL_SIZE] : null;
        elements[k] = element;
        return element;
    }

    private void endEntry() {
        Object first;
        Object second;
        if (shape.cells()) {
            checkCells();
            first = list(cells, cellCount);
            second = list(proofs, proofCount);
        } else {
            Object proofPart = shape == EntryShape.V1 ? proof : proofs;
            if (blob == null || proofPart == null) {
                throw new ResponseFault(shape.structure + " without "
                        + (blob == null ? "blob" : shape == EntryShape.V1 ? "proof" : "proofs"));
            }
            first = blob;
            second = shape == EntryShape.V1 ? proof : Arrays.asList(proofs);
        }
        blob = null;
        proof = null;
        proofs = null;
        cells = null;
        entries.add(entry.apply(first, second));
    }

    /** A {@code BlobCellsAndProofsV1}: both arrays, as long as each other and as the entries before, nulls paired. */
    private void checkCells() {
        if (cells == null || proofs == null) {
            throw new ResponseFault(shape.structure + " without " + (cells == null ? "blob_cells" : "proofs"));
        }
        if (cellCount != proofCount) {
            throw new ResponseFault(count(cellCount, "cell", "cells") + " but " + count(proofCount, "proof", "proofs"));
        }
        if (cellsPerEntry >= 0 && cellCount != cellsPerEntry) {
            throw new ResponseFault(count(cellCount, "cell", "cells") + ", the entries before " + cellsPerEntry);
        }
        cellsPerEntry = cellCount;
        for (int k = 0; k < cellCount; k++) {
            if ((cells[k] == null) != (proofs[k] == null)) {
                throw new ResponseFault("cell " + k + " is " + (cells[k] == null ? "null" : "present")
                        + " but its proof " + (proofs[k] == null ? "null" : "present"));
            }
        }
    }

    private static List<byte[]> list(byte[][] elements, int count) {
        return Arrays.asList(count == elements.length ? elements : Arrays.copyOf(elements, count));
    }

    // ---------------------------------------------------------------- faults

    private ResponseFault entryFault(String found) {
        return ResponseFault.expected(
                "a " + shape.structure + " object" + (shape.nullEntries ? " or null" : ""), found);
    }

    private ResponseFault memberFault(String found) {
        return ResponseFault.expected(member == BLOB || member == PROOF ? "a hex string" : "an array", found);
    }

    private ResponseFault elementFault(String found) {
        return ResponseFault.expected("a hex string" + (shape.cells() ? " or null" : ""), found);
    }

    /** {@code 1 entry}, {@code 2 entries}. */
    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    private static void once(boolean seen, String name) {
        if (seen) {
            throw new ResponseFault("duplicate member " + name);
        }
    }

    private static boolean is(CharSequence text, String expected) {
        return expected.contentEquals(text);
    }
}
