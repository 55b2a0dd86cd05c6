package io.hexstream.server.rpc;

import java.util.List;

/**
 * One parsed JSON-RPC 2.0 request. {@code id} is {@code null} for a notification (no {@code id}
 * member), which gets no reply. A request that is not valid carries its error instead of a method.
 *
 * @param id the id's JSON token, or {@code null} for a notification
 * @param method the method name, or {@code null} when {@code invalid}
 * @param params positional params: each a {@code String}, a {@code List<String>}, or {@link #OTHER}
 * @param invalid why the request is not a valid Request object, or {@code null}
 */
public record RpcRequest(byte[] id, String method, List<Object> params, String invalid) {
    /** A param that is neither a string nor an array of strings (no method here takes one). */
    public static final Object OTHER = new Object() {
        @Override
        public String toString() {
            return "a value that is neither a string nor an array of strings";
        }
    };

    public boolean isNotification() {
        return id == null;
    }
}
