package io.hexstream.client;

/**
 * A response that is not a getBlobs answer to the call, outside its JSON: an HTTP status other than 200 (with an SSZ
 * route's problem document), a reply longer than its call allows, a WebSocket protocol fault, or an SSZ body of another
 * layout, e.g. {@code entries[3].contents: offset 6, expected 5 at byte 393,390}. The message is one line. (A JSON body
 * that is malformed or of another shape is a {@link GetBlobsResponseException}, with its path and byte offset.)
 */
public final class BadResponseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadResponseException(String message) {
        super(message);
    }
}
