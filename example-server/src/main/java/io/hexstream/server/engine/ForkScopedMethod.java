package io.hexstream.server.engine;

import io.hexstream.server.rpc.RpcMethod;

/**
 * A method that the server's fork ({@code --fork}) may not serve, as {@code engine_getBlobsV1} is not served from Osaka
 * on. It stays in the method table either way, so that a call gets {@code -38005 Unsupported fork} (execution-apis
 * {@code common.md}, "Errors") rather than {@code -32601 Method not found}; {@code engine_exchangeCapabilities} lists
 * it only when it is served.
 */
public interface ForkScopedMethod extends RpcMethod {
    /** Whether the server's fork serves this method: if not, every call is refused with {@code -38005}. */
    boolean servedUnderFork();
}
