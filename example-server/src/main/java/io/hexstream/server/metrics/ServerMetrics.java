package io.hexstream.server.metrics;

import io.hexstream.server.auth.Refusal;
import java.util.Locale;

/**
 * What the request path tells about itself: the one seam between the server and its metrics and access log. No method
 * has a default: every implementation ({@link PrometheusMetrics}, {@link #NONE}, and the {@link AccessLog} that
 * forwards to one of them) must say what it does with each, so that a metric added here cannot be dropped by one of
 * them unseen. {@link #NONE} (what the server runs with unless {@code --metrics-port} or {@code --access-log} is given)
 * records nothing, so that metrics off cost a call to an empty method. Implementations are thread-safe and never block:
 * they are called on the event loops, the request threads and the ingest threads.
 *
 * <p>Every label comes from a fixed set: method names from the server's method table (or {@link #UNKNOWN_METHOD},
 * {@link #INVALID_REQUEST}, {@link #BATCH}, {@link #NO_METHOD}), error codes from {@link ReplyError} (the JSON-RPC
 * errors), refusals from {@link Limit} and {@link Refusal.Reason}, transaction checks from the ingest's own names;
 * never raw client input.
 */
public interface ServerMetrics {
    /** Metrics off: records nothing. */
    ServerMetrics NONE = new NoMetrics();

    /** The method label of a call to a method the server does not serve. */
    String UNKNOWN_METHOD = "unknown";
    /** The method label of a request that is not a valid JSON-RPC request. */
    String INVALID_REQUEST = "invalid";
    /** The method label of an HTTP response to a batch. */
    String BATCH = "batch";
    /** The method label of an HTTP response to a body that did not parse (or notifications only). */
    String NO_METHOD = "none";

    /** The limits of the server that refuse a connection or a request, as the metrics name them. */
    enum Limit {
        MAX_CONNECTIONS,
        /** A connection that had not passed the JWT, closed to give its place to a new one. */
        MAX_CONNECTIONS_DISPLACED,
        MAX_PIPELINED,
        MAX_BATCH_SIZE,
        MAX_RESPONSE_BYTES,
        MAX_REQUEST_BYTES,
        WRITE_TIMEOUT,
        IDLE_TIMEOUT,
        SERVER_BUSY;

        /**
         * The option's name without dashes, e.g. {@code max_connections}; {@code max_connections_displaced} for a
         * connection closed for a new one, {@code server_busy} for a full ingest or request queue.
         */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One JSON-RPC reply sent for {@code method}: {@code error} is {@code null} for a result. */
    void replied(String method, ReplyError error);

    /** The {@code transport} label of HTTP/1.1 responses on a TCP port. */
    String HTTP = "http";
    /** The {@code transport} label of HTTP/2 responses (h2c) on a TCP port. */
    String H2 = "h2";
    /** The {@code transport} label of HTTP/1.1 responses on the IPC socket. */
    String IPC_HTTP = "ipc-http";
    /** The {@code transport} label of HTTP/2 responses (h2c) on the IPC socket. */
    String IPC_H2 = "ipc-h2";

    /**
     * One response to JSON-RPC requests is written to its last byte ({@code completed}) or was abandoned (the
     * connection closed first): its summary and how long it took from the whole request to the last byte handed to the
     * socket. {@code transport}: {@link #HTTP}, {@link #H2}, {@link #IPC_HTTP}, {@link #IPC_H2}, or a reply over
     * WebSocket ({@code ws}) or newline-delimited IPC ({@code ipc}), timed from its whole message.
     */
    void responded(String transport, ResponseSummary summary, long bodyBytes, long nanosToLastByte, boolean completed);

    /** An {@code engine_getBlobsVn} call asked for {@code requested} hashes, of which {@code available} were pooled. */
    void blobsLookedUp(String method, int requested, int available);

    void connectionOpened();

    void connectionClosed();

    /** A response is handed to the channel; {@link #responseDone()} once written or abandoned. */
    void responseStarted();

    void responseDone();

    /** A connection has been unwritable for more than a second ({@code true}), or is not any more. */
    void stalled(boolean stalled);

    /** Bytes handed to a socket. */
    void bytesWritten(long bytes);

    /** Something happened to an HTTP/2 stream. */
    void http2Stream(StreamEvent event);

    /** A request refused for its JWT. */
    void jwtRefused(Refusal.Reason reason);

    /** A connection or request refused, or a connection closed, by {@code limit}. */
    void refused(Limit limit);

    void transactionAccepted();

    /** A transaction refused by {@code check}, one of the ingest's fixed names (e.g. {@code signature}). */
    void transactionRefused(String check);

    /** One KZG batch verification took {@code nanos}. */
    void kzgVerified(long nanos);

    /** One fsync of the store (a file or its directory) took {@code nanos}. */
    void fsynced(long nanos);
}
