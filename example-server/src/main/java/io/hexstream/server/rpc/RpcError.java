package io.hexstream.server.rpc;

import io.hexstream.server.metrics.ReplyError;

/** JSON-RPC and Engine API error codes (execution-apis {@code src/engine/common.md}, "Errors"). */
public enum RpcError implements ReplyError {
    PARSE_ERROR(-32700, "Parse error"),
    INVALID_REQUEST(-32600, "Invalid Request"),
    METHOD_NOT_FOUND(-32601, "Method not found"),
    INVALID_PARAMS(-32602, "Invalid params"),
    INTERNAL_ERROR(-32603, "Internal error"),
    SERVER_ERROR(-32000, "Server error"),
    TOO_LARGE_REQUEST(-38004, "Too large request"),
    UNSUPPORTED_FORK(-38005, "Unsupported fork");

    private final int code;
    private final String message;
    private final String label;

    RpcError(int code, String message) {
        this.code = code;
        this.message = message;
        this.label = Integer.toString(code);
    }

    public int code() {
        return code;
    }

    /** The code as the metrics label it, e.g. {@code -32602}. */
    @Override
    public String label() {
        return label;
    }

    /** The spec's message for the code. */
    public String message() {
        return message;
    }
}
