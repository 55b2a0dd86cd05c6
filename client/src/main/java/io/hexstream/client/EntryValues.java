package io.hexstream.client;

import io.hexstream.codec.json.StringValue;

/**
 * Where a {@link BlobsResultListener} puts the result it has checked: each hex value decoded into a destination of its
 * exact size (picked through its {@link StringValue} during the call), each entry handed on at its closing brace, in
 * result order. {@link ArrayEntries} decodes into new {@code byte[]}s ({@link GetBlobsResponses});
 * {@link PooledEntries} into pooled direct buffers for a {@link BlobsListener}.
 */
interface EntryValues {

    /** The result is {@code null}. */
    void nullResult();

    /** The result's array begins. */
    void beginResult();

    /** {@code result[index]} is {@code null}. */
    void missing(int index);

    /** The entry's blob, 131,072 bytes. */
    void blob(StringValue value);

    /** A {@code BlobAndProofV1}'s proof, 48 bytes. */
    void proof(StringValue value);

    /** The entry's {@code proofs} array begins; it holds at most {@code max}. */
    void beginProofs(int max);

    /** The entry's {@code blob_cells} array begins; it holds at most {@code max}. */
    void beginCells(int max);

    /** Element {@code k} of {@code proofs}, 48 bytes; {@code value} is {@code null} for a {@code null} element. */
    void proof(int k, StringValue value);

    /** Element {@code k} of {@code blob_cells}, 2,048 bytes; {@code value} is {@code null} for a {@code null} cell. */
    void cell(int k, StringValue value);

    /** The blob and proof or proofs decoded are {@code result[index]}. */
    void blobEntry(int index);

    /**
     * The cells and proofs decoded, {@code count} of each, are {@code result[index]}; {@code present[k]} for {@code k <
     * count} says whether cell {@code k} (and its proof) is not {@code null}.
     */
    void cellsEntry(int index, boolean[] present, int count);
}
