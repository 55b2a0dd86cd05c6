package io.hexstream.server.rpc;

/** A JSON-RPC method the dispatcher serves. Implementations are thread-safe. */
public interface RpcMethod {
    /** The method's name, e.g. {@code engine_getBlobsV2}. */
    String name();

    /**
     * Whether {@link #call} blocks (disk, KZG, locks held for I/O): such a method is run on the ingest
     * executor, never on an event loop, and must answer in a small reply (at most
     * {@link JsonRpcDispatcher#BLOCKING_REPLY_RESERVE} bytes besides the id).
     */
    default boolean blocking() {
        return false;
    }

    /**
     * Answers one call.
     *
     * @throws RpcException with the spec's code (execution-apis {@code common.md}, "Errors") when the call is refused
     */
    RpcResult call(Params params) throws RpcException;
}
