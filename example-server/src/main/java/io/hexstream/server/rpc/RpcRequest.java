package io.hexstream.server.rpc;

/**
 * One parsed JSON-RPC 2.0 request. {@code id} is {@code null} for a notification (no {@code id} member), which gets no
 * reply. A request that is not valid carries its error instead of a method.
 *
 * @param id the id's JSON token, or {@code null} for a notification
 * @param method the method name, or {@code null} when {@code invalid}
 * @param params the params, as the method will read them
 * @param invalid why the request is not a valid Request object ({@code -32600}), or {@code null}
 */
public record RpcRequest(byte[] id, String method, Params params, String invalid) {
    public boolean isNotification() {
        return id == null;
    }
}
