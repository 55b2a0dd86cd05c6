package io.hexstream.client;

import java.io.IOException;
import java.util.Locale;

/**
 * A JSON getBlobs response that is not one, whether read by {@link GetBlobsResponses} or by a {@link BlobsClient}:
 * malformed JSON or UTF-8, a hex value that is not strict {@code DATA} or not of its size (a blob 131,072 bytes, a cell
 * 2,048, a proof 48), a JSON-RPC envelope without {@code "jsonrpc": "2.0"} or with neither or both of {@code result}
 * and {@code error}, an entry of another shape than its method's (a missing member, 127 cell proofs), more or fewer
 * entries than the versioned hashes asked, an {@code id} other than the request's (a {@link BlobsClient}'s), or the end
 * of the body inside the document. A JSON-RPC error object is not this but a {@link RpcErrorException}.
 *
 * <p>The message is one line, {@code <path>: <fault> at byte <offset>} as the codec's
 * {@link io.hexstream.codec.json.JsonDecodeException}, e.g. {@code result[3].proofs: 127 proofs, expected 128 at byte
 * 1,050,111}; the path is left out (with its colon) at the top level. The offset is that of the byte where the fault
 * was found, counted from the body's first byte.
 */
public final class GetBlobsResponseException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final String fault;
    private final long offset;

    GetBlobsResponseException(String path, String fault, long offset, Throwable cause) {
        super(
                (path.isEmpty() ? "" : path + ": ") + fault + " at byte " + String.format(Locale.ROOT, "%,d", offset),
                cause);
        this.path = path;
        this.fault = fault;
        this.offset = offset;
    }

    /** Where in the document: {@code result[3].proofs}; empty at the top level. */
    public String path() {
        return path;
    }

    /** What is wrong, without path or offset: {@code 127 proofs, expected 128}. */
    public String fault() {
        return fault;
    }

    /** The zero-based offset in the body of the byte where the fault was found (the body's length at its end). */
    public long offset() {
        return offset;
    }
}
