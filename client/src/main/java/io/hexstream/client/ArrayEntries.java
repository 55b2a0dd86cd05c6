package io.hexstream.client;

import io.hexstream.codec.json.StringValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The entries of a result as {@link GetBlobsResponses} hands them over: each value decoded into a new {@code byte[]} of
 * its size, each entry given to the caller's function and its answer kept, in order ({@code null} where the entry is).
 * Allocates those arrays, one array of references per entry's array, and the list of answers.
 *
 * @param <T> what the entry function makes of an entry
 */
final class ArrayEntries<T> implements EntryValues {
    private final BlobsMethod method;
    private final int hashCount;
    /** Takes the blob or cells (first) and the proof or proofs (second), as {@link GetBlobsResponses} typed it. */
    private final BiFunction<Object, Object, T> entry;

    private List<T> entries;
    private byte[] blob;
    private byte[] proof;
    private byte[][] proofs;
    private byte[][] cells;

    ArrayEntries(BlobsMethod method, int hashCount, BiFunction<Object, Object, T> entry) {
        this.method = method;
        this.hashCount = hashCount;
        this.entry = entry;
    }

    /** The answers, one per entry, in order; {@code null} for a {@code null} result. */
    List<T> entries() {
        return entries;
    }

    @Override
    public void nullResult() {
        entries = null;
    }

    @Override
    public void beginResult() {
        entries = new ArrayList<>(Math.min(hashCount, 1024));
    }

    @Override
    public void missing(int index) {
        entries.add(null);
    }

    @Override
    public void blob(StringValue value) {
        blob = decode(value, BlobSizes.BLOB_SIZE);
    }

    @Override
    public void proof(StringValue value) {
        proof = decode(value, BlobSizes.PROOF_SIZE);
    }

    @Override
    public void beginProofs(int max) {
        proofs = new byte[max][];
    }

    @Override
    public void beginCells(int max) {
        cells = new byte[max][];
    }

    @Override
    public void proof(int k, StringValue value) {
        proofs[k] = value == null ? null : decode(value, BlobSizes.PROOF_SIZE);
    }

    @Override
    public void cell(int k, StringValue value) {
        cells[k] = value == null ? null : decode(value, BlobSizes.CELL_SIZE);
    }

    @Override
    public void blobEntry(int index) {
        entries.add(entry.apply(blob, method == BlobsMethod.V1 ? proof : Arrays.asList(proofs)));
        blob = null;
        proof = null;
        proofs = null;
    }

    @Override
    public void cellsEntry(int index, boolean[] present, int count) {
        entries.add(entry.apply(list(cells, count), list(proofs, count)));
        cells = null;
        proofs = null;
    }

    private static byte[] decode(StringValue value, int size) {
        byte[] bytes = new byte[size];
        value.hex(bytes, 0, size, size);
        return bytes;
    }

    private static List<byte[]> list(byte[][] elements, int count) {
        return Arrays.asList(count == elements.length ? elements : Arrays.copyOf(elements, count));
    }
}
