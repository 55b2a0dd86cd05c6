package io.hexstream.server.rpc;

import io.hexstream.server.metrics.Exchange;
import java.util.List;

/**
 * The replies to the requests of one HTTP request, in request order (notifications have none), and
 * whether they are answered as a JSON array (the request was a batch); with what they answered, for the
 * metrics and the access log ({@code null} where none is kept, e.g. a reply measured on its own).
 */
public record Replies(List<RpcReply> replies, boolean batch, Exchange exchange) {
    public Replies {
        replies = List.copyOf(replies);
    }

    /** Replies without what they answered. */
    public Replies(List<RpcReply> replies, boolean batch) {
        this(replies, batch, null);
    }

    /** Whether there is nothing to send (notifications only): the HTTP response has an empty body. */
    public boolean isEmpty() {
        return replies.isEmpty();
    }
}
