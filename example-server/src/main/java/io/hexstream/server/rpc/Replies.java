package io.hexstream.server.rpc;

import io.hexstream.server.metrics.ResponseSummary;
import java.util.List;

/**
 * The replies to the requests of one HTTP request, in request order (notifications have none), and whether they form a
 * JSON array (the request was a batch); with the summary of the HTTP response they make, for the metrics and the access
 * log ({@code null} where none is kept).
 *
 * <p>Owns the replies: hand them to {@link ResponseWriter#body}, which takes them over, or {@link #release()} them.
 */
public record Replies(List<RpcReply> replies, boolean batch, ResponseSummary summary) {
    public Replies {
        replies = List.copyOf(replies);
    }

    /** Replies without a summary. */
    public Replies(List<RpcReply> replies, boolean batch) {
        this(replies, batch, null);
    }

    /** Whether there is nothing to send (notifications only): the HTTP response has an empty body. */
    public boolean isEmpty() {
        return replies.isEmpty();
    }

    /** Gives back every reply, for replies that are not sent. */
    public void release() {
        replies.forEach(RpcReply::release);
    }
}
