package io.hexstream.server.metrics;

import java.util.Locale;

/** What happened to an HTTP/2 stream, counted by {@link ServerMetrics#http2Stream}. */
public enum StreamEvent {
    /** A stream was opened by a client's HEADERS. */
    OPENED,
    /** A client reset a stream ({@code RST_STREAM} received). */
    RESET_BY_CLIENT,
    /** A stream over {@code SETTINGS_MAX_CONCURRENT_STREAMS} was refused ({@code RST_STREAM REFUSED_STREAM} sent). */
    REFUSED,
    /**
     * A stream's reply has waited for more than a second on flow control: its window or the connection's shut, or the
     * socket full.
     */
    STALLED;

    /** The metric's label value, e.g. {@code reset_by_client}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
