package io.hexstream.server.client;

/**
 * A JSON-RPC error response (JSON-RPC 2.0, section 5.1): its {@code code} and {@code message}; the message of the
 * exception is both, {@code -38005 Unsupported fork}.
 */
public final class RpcErrorException extends Exception {
    private static final long serialVersionUID = 1L;

    private final long code;
    private final String rpcMessage;

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
