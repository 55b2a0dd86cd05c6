package io.hexstream.server.rpc;

import java.util.List;

/**
 * The replies to the requests of one HTTP request, in request order (notifications have none), and
 * whether they are answered as a JSON array (the request was a batch).
 */
public record Replies(List<RpcReply> replies, boolean batch) {
    public Replies {
        replies = List.copyOf(replies);
    }

    /** Whether there is nothing to send (notifications only): the HTTP response has an empty body. */
    public boolean isEmpty() {
        return replies.isEmpty();
    }
}
