package io.hexstream.server.metrics;

/**
 * The error a JSON-RPC reply carried, as the metrics and the access log name it. The JSON-RPC errors
 * ({@code rpc.RpcError}) implement it, so that the dependency goes one way: {@code rpc} tells {@code metrics}, and
 * {@code metrics} knows nothing of {@code rpc}.
 */
public interface ReplyError {
    /** The outcome label: the error's code, e.g. {@code -32602}. */
    String label();
}
