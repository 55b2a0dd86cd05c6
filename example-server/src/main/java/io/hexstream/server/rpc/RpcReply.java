package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;

/**
 * The JSON-RPC reply to one request (JSON-RPC 2.0, "Response object"), built once, when it is made, into a
 * {@link JsonBody} of its own, so that its exact length is known before it is sent:
 * {@code {"jsonrpc":"2.0","id":…,"result":…}}, or {@code {"jsonrpc":"2.0","id":…,"error":{"code":…, "message":"…"}}},
 * {@code -32000} also with {@code "data":{"err":"…"}} (execution-apis {@code common.md}, "Errors"). The id is written
 * exactly as the request's JSON token (number, string or {@code null}).
 *
 * <p>Owns its body, and through it what the result referenced (e.g. cached digits), until {@link ResponseWriter} takes
 * it over or {@link #release()} gives it back.
 */
public final class RpcReply {
    private final byte[] id;
    private final RpcResult result;
    private final RpcError error;
    private final JsonBody body;

    private RpcReply(byte[] id, RpcResult result, RpcError error, JsonBody body) {
        this.id = id;
        this.result = result;
        this.error = error;
        this.body = body;
    }

    /**
     * A reply with {@code result}, written now.
     *
     * @param id the JSON token of the request's id, UTF-8
     */
    public static RpcReply success(byte[] id, RpcResult result) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            envelope(b, id).name("result");
            result.write(b);
            return new RpcReply(id, result, null, b.endObject().build());
        }
    }

    /**
     * A reply with {@code error}.
     *
     * @param id the JSON token of the request's id, UTF-8
     * @param detail what exactly was wrong, appended to the spec's message (and the {@code -32000} {@code data.err});
     *     may be {@code null}
     */
    public static RpcReply failure(byte[] id, RpcError error, String detail) {
        try (JsonBodyBuilder b = JsonBody.builder()) {
            envelope(b, id)
                    .name("error")
                    .beginObject()
                    .name("code")
                    .number(error.code())
                    .name("message")
                    .string(detail == null ? error.message() : error.message() + ": " + detail);
            if (error == RpcError.SERVER_ERROR) {
                b.name("data")
                        .beginObject()
                        .name("err")
                        .string(detail != null ? detail : error.message())
                        .endObject();
            }
            return new RpcReply(id, null, error, b.endObject().endObject().build());
        }
    }

    private static JsonBodyBuilder envelope(JsonBodyBuilder b, byte[] id) {
        return b.beginObject().name("jsonrpc").string("2.0").name("id").raw(id);
    }

    /** The JSON token of the request's id, UTF-8 (not a copy: change nothing in it). */
    public byte[] id() {
        return id;
    }

    /** The result, or {@code null} for an error. */
    public RpcResult result() {
        return result;
    }

    /** The error, or {@code null} for a result. */
    public RpcError error() {
        return error;
    }

    /** The exact bytes the reply takes in a response (a batch's separators not included). */
    public long length() {
        return body.length();
    }

    /** The reply's body, for {@link ResponseWriter} to take over. */
    JsonBody body() {
        return body;
    }

    /** Gives back the body, for a reply that is not sent. */
    public void release() {
        body.release();
    }
}
