package io.hexstream.server.metrics;

/**
 * The summary of one HTTP response of the Engine API (to JSON-RPC requests, or a binary getBlobs route), for the
 * metrics and the access log.
 *
 * @param method the method label: a method's name, or one of {@link ServerMetrics}'s labels for a batch, an unknown
 *     method, an invalid request or a body that did not parse
 * @param hashes versioned hashes asked for (getBlobs; summed over a batch), else 0
 * @param hits blobs returned, else 0
 * @param error the first error among the replies, or {@code null} if every reply is a result
 */
public record ResponseSummary(String method, int hashes, int hits, ReplyError error) {
    /** {@code ok}, or the first error's code. */
    public String outcome() {
        return outcome(error);
    }

    /** The outcome label of a reply: {@code ok}, or the error's code, e.g. {@code -32602}. */
    public static String outcome(ReplyError error) {
        return error == null ? "ok" : error.label();
    }
}
