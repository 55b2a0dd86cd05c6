package io.hexstream.server.rpc;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyBuilder;
import java.util.List;

/**
 * Joins the replies to one HTTP request into the JSON-RPC response document, a {@link JsonBody} of exact length: the
 * one reply itself, or a batch's replies in a JSON array. Each reply was built when it was made ({@link RpcReply});
 * nothing is built again or copied. Stateless: one instance serves every thread.
 */
public final class ResponseWriter {
    /**
     * The response document for {@code replies}, which it takes over (the bodies of the replies move into it); the
     * caller owns the document (write it, or release it). Not for empty replies (notifications only: the HTTP response
     * has no body).
     */
    public JsonBody body(Replies replies) {
        List<RpcReply> all = replies.replies();
        if (!replies.batch() && all.size() == 1) {
            return all.get(0).body();
        }
        int taken = 0;
        try (JsonBodyBuilder b = JsonBody.builder()) {
            b.beginArray();
            for (; taken < all.size(); taken++) {
                b.value(all.get(taken).body());
            }
            return b.endArray().build();
        } finally {
            for (int i = taken; i < all.size(); i++) {
                all.get(i).release();
            }
        }
    }
}
