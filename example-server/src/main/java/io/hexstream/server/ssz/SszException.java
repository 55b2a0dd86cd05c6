package io.hexstream.server.ssz;

import io.netty.handler.codec.http.HttpResponseStatus;

/** A binary SSZ request refused: the HTTP status (EIP-8178 draft, "HTTP Status Codes") and a one-line reason. */
public final class SszException extends Exception {
    private final HttpResponseStatus status;

    public SszException(HttpResponseStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** {@code 400} (malformed SSZ, or a version not served) or {@code 413} (too many versioned hashes). */
    public HttpResponseStatus status() {
        return status;
    }
}
