package io.hexstream.client;

import io.hexstream.codec.http.JsonResponseConsumer;
import io.hexstream.codec.json.JsonTokenListener;
import io.hexstream.codec.json.StringValue;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpResponse;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Reads one JSON-RPC response to a getBlobs call as it arrives (JSON-RPC 2.0, section 5; the entries of execution-apis'
 * {@code BlobAndProofV1}, {@code BlobAndProofV2}, {@code BlobCellsAndProofsV1}): members in any order, members it does
 * not know skipped whatever their value, the hex of blobs, cells and proofs decoded straight into pooled direct buffers
 * of their exact size (strict {@code DATA}: a blob 131,072 bytes, a cell 2,048, a proof 48), each entry handed to the
 * {@link BlobsListener} at its closing brace. A response of another shape (an entry without its blob, 127 cell proofs,
 * a result of another length than the hashes asked, an id other than the request's) fails the call with a
 * {@link BadResponseException}; a JSON-RPC error with a {@link RpcErrorException}. A result longer than the hashes
 * asked is refused at its first entry past them, before that entry is read: an endless result stops there.
 *
 * <p>Ownership: the buffers of the entry being read are released here if the response fails; those handed over are the
 * listener's. Called on the connection's event loop only.
 */
final class JsonBlobsReader implements JsonResponseConsumer, JsonTokenListener {
    // Members, by where they are: the envelope (depth 1), its error (depth 2), an entry (depth 3).
    private static final int OTHER = 0;
    private static final int JSONRPC = 1;
    private static final int ID = 2;
    private static final int RESULT = 3;
    private static final int ERROR = 4;
    private static final int CODE = 5;
    private static final int MESSAGE = 6;
    private static final int BLOB = 7;
    private static final int PROOF = 8;
    private static final int PROOFS = 9;
    private static final int BLOB_CELLS = 10;

    private final GetBlobsCall call;
    private final BlobsMethod method;
    private final long id;
    private final BlobsListener listener;
    private final EntryHandover handover;
    private final ByteBufAllocator allocator;
    private final LongSupplier bodyBytes;
    private final long start;
    private final int[] selected;
    private final long maxBytes;
    private final CompletableFuture<BlobsOutcome> outcome = new CompletableFuture<>();

    private long toHead;
    private int depth;
    /** Non-zero while a value of no interest is skipped: the depth of its inside. */
    private int skipDepth;
    /** The member whose value comes next, or (at depth 4) the entry's array being read. */
    private int member;

    private int arrayMember;
    private boolean inError;
    private boolean sawVersion;
    private boolean idMatches;
    private boolean sawResult;
    private boolean sawError;
    private boolean nullResult;
    private int entries;
    private Long errorCode;
    private String errorMessage;

    // The entry being read.
    private int entry = -1;
    private int proofCount = -1;
    private int cellCount = -1;
    private boolean[] proofPresent;
    private boolean[] cellPresent;

    JsonBlobsReader(
            GetBlobsCall call,
            long id,
            BlobsListener listener,
            ByteBufAllocator allocator,
            LongSupplier bodyBytes,
            long start) {
        this.call = call;
        this.method = call.method();
        this.id = id;
        this.listener = listener;
        this.allocator = allocator;
        this.bodyBytes = bodyBytes;
        this.start = start;
        this.handover = new EntryHandover(listener, start);
        this.selected = call.selectedCells();
        this.maxBytes = JsonReplySize.max(call);
    }

    /** Completes with the outcome once the response has ended, or fails. */
    CompletableFuture<BlobsOutcome> outcome() {
        return outcome;
    }

    // ---------------------------------------------------------------- the exchange

    @Override
    public JsonTokenListener head(HttpResponse head) {
        return begin(); // a 200's: other statuses are JsonBlobsResponse's
    }

    /**
     * The reply has taken {@code bytes} so far: a fault past the most its call allows ({@link JsonReplySize}), for
     * replies framed as one message, whose length only the reader can bound.
     */
    void counted(long bytes) {
        if (bytes > maxBytes) {
            throw new BadResponseException(String.format(
                    Locale.ROOT,
                    "a reply of more than %,d bytes, the most %s for %d versioned hash%s can take",
                    maxBytes,
                    method.methodName(),
                    call.hashes().size(),
                    call.hashes().size() == 1 ? "" : "es"));
        }
    }

    /** The reply's first bytes arrived (the head, or a message's first piece): the time to first byte. */
    JsonBlobsReader begin() {
        toHead = System.nanoTime() - start;
        return this;
    }

    @Override
    public void complete() {
        long toLastByte = System.nanoTime() - start;
        if (sawError) {
            outcome.completeExceptionally(new RpcErrorException(errorCode, errorMessage));
        } else {
            outcome.complete(new BlobsOutcome(
                    call.hashes().size(),
                    handover.available(),
                    bodyBytes.getAsLong(),
                    toHead,
                    handover.toFirstBlob(),
                    toLastByte));
        }
    }

    @Override
    public void failed(Throwable cause) {
        handover.release();
        outcome.completeExceptionally(cause);
    }

    // ---------------------------------------------------------------- containers

    @Override
    public void beginObject() {
        if (skipDepth == 0) {
            switch (depth) {
                case 0 -> {}
                case 1 -> {
                    if (member == ERROR) {
                        sawError = once(sawError, "error");
                        inError = true;
                    } else {
                        skipUnknown("an object");
                    }
                }
                case 2 -> {
                    if (inError) {
                        skipUnknown("an object");
                    } else {
                        beginEntry();
                    }
                }
                case 3 -> skipUnknown("an object");
                default -> scalar("an object", null);
            }
        }
        depth++;
        member = OTHER;
    }

    @Override
    public void beginArray() {
        if (skipDepth == 0) {
            switch (depth) {
                case 0 -> throw fault("", "expected a JSON-RPC response object, found an array");
                case 1 -> {
                    if (member == RESULT) {
                        sawResult = once(sawResult, "result");
                    } else {
                        skipUnknown("an array");
                    }
                }
                case 2 -> {
                    if (inError) {
                        skipUnknown("an array");
                    } else {
                        throw fault(entryPath(entries), "expected an entry object or null, found an array");
                    }
                }
                case 3 -> beginEntryArray();
                default -> scalar("an array", null);
            }
        }
        depth++;
    }

    @Override
    public void endObject() {
        if (endContainer()) {
            return;
        }
        if (depth == 0) {
            endEnvelope();
        } else if (depth == 1 && inError) {
            inError = false;
            if (errorCode == null || errorMessage == null) {
                throw fault("error", "expected a code and a message");
            }
        } else if (depth == 2) {
            endEntry();
        }
    }

    @Override
    public void endArray() {
        if (endContainer()) {
            return;
        }
        if (depth == 1 && !inError && entries != call.hashes().size()) {
            throw fault("result", entries + " entries for " + call.hashes().size() + " versioned hashes");
        }
        if (depth == 3) {
            int count = arrayMember == PROOFS ? proofCount : cellCount;
            int expected = method.answersCells() ? selected.length : method.proofsPerBlob();
            if (count != expected) {
                throw fault(memberPath(arrayMember), count + " elements, expected " + expected);
            }
        }
    }

    /** Leaves a container; true if it was inside or the end of a skipped value. */
    private boolean endContainer() {
        depth--;
        if (skipDepth == 0) {
            return false;
        }
        if (depth < skipDepth) {
            skipDepth = 0;
        }
        return true;
    }

    /** A value of a member the reader does not know: skipped; of one it knows: a fault. */
    private void skipUnknown(String found) {
        if (member != OTHER) {
            throw fault(memberPath(member), "expected " + what(member) + ", found " + found);
        }
        skipDepth = depth + 1;
    }

    // ---------------------------------------------------------------- names and scalars

    @Override
    public void name(CharSequence name) {
        if (skipDepth != 0) {
            return;
        }
        member = switch (depth) {
            case 1 ->
                is(name, "jsonrpc")
                        ? JSONRPC
                        : is(name, "id") ? ID : is(name, "result") ? RESULT : is(name, "error") ? ERROR : OTHER;
            case 2 -> !inError ? OTHER : is(name, "code") ? CODE : is(name, "message") ? MESSAGE : OTHER;
            case 3 -> entryMember(name);
            default -> OTHER;
        };
    }

    private int entryMember(CharSequence name) {
        if (method.answersCells()) {
            return is(name, "blob_cells") ? BLOB_CELLS : is(name, "proofs") ? PROOFS : OTHER;
        }
        if (is(name, "blob")) {
            return BLOB;
        }
        return method == BlobsMethod.V1 ? (is(name, "proof") ? PROOF : OTHER) : (is(name, "proofs") ? PROOFS : OTHER);
    }

    @Override
    public void stringStart(StringValue value) {
        if (skipDepth != 0) {
            value.skip();
            return;
        }
        switch (depth) {
            case 1 -> {
                if (member != JSONRPC && member != ID) {
                    scalar("a string", value);
                }
            }
            case 2 -> {
                if (!inError) {
                    throw fault(entryPath(entries), "expected an entry object or null, found a string");
                }
                if (member != MESSAGE) {
                    scalar("a string", value);
                }
            }
            case 3 -> entryString(value);
            default -> elementString(value);
        }
    }

    @Override
    public void string(CharSequence text) {
        if (skipDepth != 0) {
            return;
        }
        if (depth == 1 && member == JSONRPC) {
            if (!is(text, "2.0")) {
                throw fault("jsonrpc", "expected \"2.0\", found \"" + text + "\"");
            }
            sawVersion = true;
        } else if (depth == 2 && member == MESSAGE) {
            errorMessage = text.toString();
        }
    }

    @Override
    public void number(CharSequence number) {
        if (skipDepth != 0) {
            return;
        }
        if (depth == 1 && member == ID) {
            idMatches = new BigDecimal(number.toString()).compareTo(BigDecimal.valueOf(id)) == 0;
        } else if (depth == 2 && inError && member == CODE) {
            try {
                errorCode = new BigDecimal(number.toString()).longValueExact();
            } catch (ArithmeticException e) {
                throw fault("error.code", "not an integer: " + number);
            }
        } else {
            scalar("a number", null);
        }
    }

    @Override
    public void bool(boolean value) {
        if (skipDepth == 0) {
            scalar(Boolean.toString(value), null);
        }
    }

    @Override
    public void nullValue() {
        if (skipDepth != 0) {
            return;
        }
        if (depth == 1 && member == RESULT) {
            sawResult = once(sawResult, "result");
            nullResult = true;
            listener.nullResult();
        } else if (depth == 2 && !inError) {
            handover.missing(nextEntry());
        } else if (depth == 4 && method.answersCells()) {
            element(null);
        } else if (!(depth == 1 && member == ID)) {
            scalar("null", null);
        }
    }

    /** A scalar where only a member the reader does not know may have one; else a fault. */
    private void scalar(String found, StringValue value) {
        if (depth == 0) {
            throw fault("", "expected a JSON-RPC response object, found " + found);
        }
        if (depth == 2 && !inError) {
            throw fault(entryPath(entries), "expected an entry object or null, found " + found);
        }
        if (depth == 4) {
            throw fault(
                    memberPath(arrayMember) + "[" + count(arrayMember) + "]",
                    "expected a hex string" + (method.answersCells() ? " or null" : "") + ", found " + found);
        }
        if (member != OTHER) {
            throw fault(memberPath(member), "expected " + what(member) + ", found " + found);
        }
        if (value != null) {
            value.skip();
        }
    }

    // ---------------------------------------------------------------- entries

    private void beginEntry() {
        entry = nextEntry();
        proofCount = -1;
        cellCount = -1;
    }

    /** The index of the entry beginning; a fault at the first past the hashes asked, before its value is read. */
    private int nextEntry() {
        int asked = call.hashes().size();
        if (entries == asked) {
            throw fault(
                    entryPath(entries),
                    "more entries than the " + asked + " versioned hash" + (asked == 1 ? "" : "es") + " asked for");
        }
        return entries++;
    }

    private void entryString(StringValue value) {
        if (member == BLOB) {
            once(handover.blob() != null, "blob");
            ByteBuf blob = handover.holdBlob(allocator.directBuffer(BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE));
            value.hex(blob, BlobSizes.BLOB_SIZE, BlobSizes.BLOB_SIZE);
        } else if (member == PROOF) {
            once(handover.proofs() != null, "proof");
            ByteBuf proof = handover.holdProofs(allocator.directBuffer(BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE));
            proofCount = 1;
            value.hex(proof, BlobSizes.PROOF_SIZE, BlobSizes.PROOF_SIZE);
        } else {
            scalar("a string", value);
        }
    }

    private void beginEntryArray() {
        if (member == PROOFS) {
            once(handover.proofs() != null, "proofs");
            int count = method.answersCells() ? selected.length : method.proofsPerBlob();
            handover.holdProofs(allocator.directBuffer(count * BlobSizes.PROOF_SIZE, count * BlobSizes.PROOF_SIZE));
            proofPresent = new boolean[count];
            proofCount = 0;
        } else if (member == BLOB_CELLS) {
            once(handover.cells() != null, "blob_cells");
            int size = selected.length * BlobSizes.CELL_SIZE;
            handover.holdCells(allocator.directBuffer(size, size));
            cellPresent = new boolean[selected.length];
            cellCount = 0;
        } else {
            skipUnknown("an array");
            return;
        }
        arrayMember = member;
    }

    /** A string in an entry's array (depth 4: deeper containers are faults). */
    private void elementString(StringValue value) {
        int size = arrayMember == PROOFS ? BlobSizes.PROOF_SIZE : BlobSizes.CELL_SIZE;
        value.hex(element(value), size, size);
    }

    /** The next element of the entry's array: its buffer if present, a fault if there are too many. */
    private ByteBuf element(StringValue present) {
        boolean proof = arrayMember == PROOFS;
        int k = proof ? proofCount++ : cellCount++;
        boolean[] presence = proof ? proofPresent : cellPresent;
        if (k == presence.length) {
            throw fault(memberPath(arrayMember), "more than " + presence.length + " elements");
        }
        presence[k] = present != null;
        return proof ? handover.proofs() : handover.cells();
    }

    private int count(int arrayMember) {
        return arrayMember == PROOFS ? proofCount : cellCount;
    }

    private void endEntry() {
        int index = entry;
        entry = -1;
        if (method.answersCells()) {
            if (handover.cells() == null || handover.proofs() == null) {
                throw fault(
                        entryPath(index),
                        "BlobCellsAndProofsV1 without " + (handover.cells() == null ? "blob_cells" : "proofs"));
            }
            int[] indices = new int[selected.length];
            int answered = 0;
            for (int k = 0; k < selected.length; k++) {
                if (cellPresent[k] != proofPresent[k]) {
                    throw fault(
                            entryPath(index),
                            "cell " + selected[k] + " is " + (cellPresent[k] ? "" : "null") + " but its proof "
                                    + (proofPresent[k] ? "is not" : "is null"));
                }
                if (cellPresent[k]) {
                    indices[answered++] = selected[k];
                }
            }
            handover.cells(index, Arrays.copyOf(indices, answered));
        } else {
            if (handover.blob() == null || handover.proofs() == null) {
                throw fault(
                        entryPath(index),
                        (method == BlobsMethod.V1 ? "BlobAndProofV1" : "BlobAndProofV2") + " without "
                                + (handover.blob() == null ? "blob" : method == BlobsMethod.V1 ? "proof" : "proofs"));
            }
            handover.blob(index);
        }
    }

    private void endEnvelope() {
        if (sawResult == sawError) {
            throw fault("", sawResult ? "both result and error" : "neither result nor error");
        }
        if (!sawVersion) {
            throw fault("", "no \"jsonrpc\": \"2.0\"");
        }
        if (!idMatches && !sawError) {
            throw fault("id", "not the request's id " + id);
        }
    }

    // ---------------------------------------------------------------- faults

    private boolean once(boolean seen, String name) {
        if (seen) {
            throw fault(depth >= 2 ? entryPath(entry) : "", "duplicate member " + name);
        }
        return true;
    }

    private String memberPath(int member) {
        return switch (member) {
            case JSONRPC -> "jsonrpc";
            case ID -> "id";
            case RESULT -> "result";
            case ERROR -> "error";
            case CODE -> "error.code";
            case MESSAGE -> "error.message";
            case BLOB -> entryPath(entry) + ".blob";
            case PROOF -> entryPath(entry) + ".proof";
            case PROOFS -> entryPath(entry) + ".proofs";
            case BLOB_CELLS -> entryPath(entry) + ".blob_cells";
            default -> "";
        };
    }

    private String what(int member) {
        return switch (member) {
            case JSONRPC -> "\"2.0\"";
            case ID -> "the request's id";
            case RESULT -> "an array or null";
            case ERROR -> "an object";
            case CODE -> "a number";
            case MESSAGE -> "a string";
            case BLOB, PROOF -> "a hex string";
            case PROOFS, BLOB_CELLS -> "an array";
            default -> "a value";
        };
    }

    private static String entryPath(int index) {
        return "result[" + index + "]";
    }

    private BadResponseException fault(String path, String fault) {
        return new BadResponseException((path.isEmpty() ? "" : path + ": ") + fault);
    }

    private static boolean is(CharSequence text, String expected) {
        return expected.contentEquals(text);
    }
}
