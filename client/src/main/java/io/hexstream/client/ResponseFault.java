package io.hexstream.client;

/**
 * A listener's refusal of what the JSON reader told it (a wrong shape), unchecked so it passes through the reader;
 * {@link GetBlobsResponses} turns it into a {@link GetBlobsResponseException} with the reader's path and offset. No
 * stack trace: the fault's text says all.
 */
final class ResponseFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the fault was found at an array's opening bracket: the reader's path has the array's first index. */
    final boolean opensArray;

    ResponseFault(String fault) {
        this(fault, false);
    }

    private ResponseFault(String fault, boolean opensArray) {
        super(fault, null, false, false);
        this.opensArray = opensArray;
    }

    /** This fault, found at an array's opening bracket. */
    ResponseFault openingArray() {
        return new ResponseFault(getMessage(), true);
    }

    /** The path of the fault, given the reader's: without the index of an array that has just opened. */
    String path(String readerPath) {
        return opensArray ? readerPath.substring(0, readerPath.lastIndexOf('[')) : readerPath;
    }

    /** {@code expected <expected>, found <found>}. */
    static ResponseFault expected(String expected, String found) {
        return new ResponseFault("expected " + expected + ", found " + found);
    }
}
