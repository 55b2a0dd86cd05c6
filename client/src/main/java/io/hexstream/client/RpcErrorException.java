package io.hexstream.client;

import java.io.IOException;

/**
 * A JSON-RPC error response (JSON-RPC 2.0, section 5.1): its {@code code} and {@code message}, e.g. the Engine API's
 * {@code -38004 Too large request} or {@code -38005 Unsupported fork}. The exception's message is both, {@code -38005
 * Unsupported fork}; the error's {@code data}, if any, is not kept.
 */
public final class RpcErrorException extends IOException {
    private static final long serialVersionUID = 1L;

    private final long code;
    private final String rpcMessage;

    /** The error object's {@code code} and {@code message}. */
    public RpcErrorException(long code, String message) {
        super(code + " " + message);
        this.code = code;
        this.rpcMessage = message;
    }

    /** The error's code, {@code -38005}. */
    public long code() {
        return code;
    }

    /** The error's message, {@code Unsupported fork}. */
    public String rpcMessage() {
        return rpcMessage;
    }
}
