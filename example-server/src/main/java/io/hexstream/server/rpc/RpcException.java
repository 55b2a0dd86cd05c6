package io.hexstream.server.rpc;

/** A call refused with a JSON-RPC error reply: the spec's code, and what exactly was wrong. */
public final class RpcException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient RpcError error;

    public RpcException(RpcError error, String detail) {
        super(detail, null, false, false);
        this.error = error;
    }

    public RpcError error() {
        return error;
    }
}
