package io.hexstream.client;

import io.hexstream.codec.json.JsonDecodeException;
import io.hexstream.codec.json.JsonHexReader;

/**
 * A listener's refusal of what the JSON reader told it (a wrong shape), unchecked so it passes through the reader; the
 * one who feeds the reader turns it ({@link #of}) into a {@link GetBlobsResponseException} with the reader's path and
 * offset. No stack trace: the fault's text says all.
 */
final class ResponseFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the fault was found at an array's opening bracket: the reader's path has the array's first index. */
    private final boolean opensArray;
    /** The path of the fault, where it is not the reader's; else {@code null}. */
    private final String path;

    ResponseFault(String fault) {
        this(fault, false, null);
    }

    private ResponseFault(String fault, boolean opensArray, String path) {
        super(fault, null, false, false);
        this.opensArray = opensArray;
        this.path = path;
    }

    /** This fault, found at an array's opening bracket. */
    ResponseFault openingArray() {
        return new ResponseFault(getMessage(), true, path);
    }

    /** {@code expected <expected>, found <found>}. */
    static ResponseFault expected(String expected, String found) {
        return new ResponseFault("expected " + expected + ", found " + found);
    }

    /** A fault of the member at {@code path}, found where the reader is elsewhere (at the document's end). */
    static ResponseFault at(String path, String fault) {
        return new ResponseFault(fault, false, path);
    }

    /**
     * The fault of the response {@code reader} read as {@code cause}, with its path and offset: the codec's
     * {@link JsonDecodeException} (malformed JSON or hex) or a listener's {@link ResponseFault} (a wrong shape); for
     * any other cause (the stream's, the entry function's, the connection's) {@code null}.
     */
    static GetBlobsResponseException of(Throwable cause, JsonHexReader reader) {
        if (cause instanceof JsonDecodeException e) {
            return new GetBlobsResponseException(e.path(), e.fault(), e.offset(), e);
        }
        if (cause instanceof ResponseFault fault) {
            String readerPath = reader.path();
            String path = fault.path != null
                    ? fault.path
                    : fault.opensArray ? readerPath.substring(0, readerPath.lastIndexOf('[')) : readerPath;
            return new GetBlobsResponseException(path, fault.getMessage(), reader.tokenOffset(), null);
        }
        return null;
    }
}
