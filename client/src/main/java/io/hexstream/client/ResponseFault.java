package io.hexstream.client;

/**
 * A listener's refusal of what the JSON reader told it (a wrong shape), unchecked so it passes through the reader;
 * {@link GetBlobsResponses} turns it into a {@link GetBlobsResponseException} with the reader's path and offset. No
 * stack trace: the fault's text says all.
 */
final class ResponseFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ResponseFault(String fault) {
        super(fault, null, false, false);
    }

    /** {@code expected <expected>, found <found>}. */
    static ResponseFault expected(String expected, String found) {
        return new ResponseFault("expected " + expected + ", found " + found);
    }
}
