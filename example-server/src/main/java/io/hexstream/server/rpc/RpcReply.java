package io.hexstream.server.rpc;

/**
 * The answer to one request: its id, exactly as the request's JSON token (number, string or
 * {@code null}), and either a result or an error.
 *
 * @param id the JSON token of the request's id, UTF-8
 * @param result the result, or {@code null} for an error
 * @param error the error, or {@code null} for a result
 * @param detail what exactly was wrong, appended to the spec's message; may be {@code null}
 */
public record RpcReply(byte[] id, RpcResult result, RpcError error, String detail) {
    public static RpcReply success(byte[] id, RpcResult result) {
        return new RpcReply(id, result, null, null);
    }

    public static RpcReply failure(byte[] id, RpcError error, String detail) {
        return new RpcReply(id, null, error, detail);
    }

    /** The error's message as sent: the spec's message, then the detail. */
    public String errorMessage() {
        return detail == null ? error.message() : error.message() + ": " + detail;
    }
}
