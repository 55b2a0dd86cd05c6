package io.hexstream.server.rpc;

/**
 * A JSON-RPC method the dispatcher serves: reads its params, returns a result that writes itself. Adding one is a class
 * and a line in the server's method table; JSON-RPC is not changed. Implementations are thread-safe.
 */
public interface RpcMethod {
    /** The method's name, e.g. {@code engine_getBlobsV2}. */
    String name();

    /**
     * Whether {@link #call} blocks (disk, KZG, locks held for I/O): such a method is run on the ingest executor, never
     * on an event loop, and its reply must be small (at most {@link JsonRpcDispatcher#BLOCKING_REPLY_RESERVE} bytes
     * besides the id).
     */
    default boolean blocking() {
        return false;
    }

    /**
     * How the parser takes the elements of this method's array params, as it meets them (bounded, decoded without a
     * {@code String}; the method reads them with {@link Params#decodedArray} or {@link Params#oneDecodedArray});
     * {@code null} (the default): kept as strings ({@link Params#oneStringArray}).
     */
    default ElementReader elements() {
        return null;
    }

    /**
     * Calls the method for one request.
     *
     * @throws RpcException with the spec's code (execution-apis {@code common.md}, "Errors") when the call is refused
     */
    RpcResult call(Params params) throws RpcException;
}
