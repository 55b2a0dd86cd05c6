package io.hexstream.server.metrics;

import io.hexstream.server.auth.Refusal;
import io.hexstream.server.text.PeerText;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --access-log}: one INFO line on the logger {@value #LOGGER} per HTTP response to JSON-RPC requests, once
 * written to its last byte (or abandoned), e.g. {@code engine_getBlobsV2 hashes=128 hits=128 bytes=35212671
 * ttlb_ms=41.2 outcome=ok traceparent=00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 client_version=LH/v6.2.1}
 * (the last two only when the request carried them); every call, that one included, goes on to the metrics it wraps
 * ({@link ServerMetrics} has no default method, so a metric added there does not compile here until it is forwarded).
 */
public final class AccessLog implements ServerMetrics {
    /** The logger's name, so that it can be routed or silenced on its own. */
    public static final String LOGGER = "hexstream.access";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private final ServerMetrics metrics;

    /** Logs to {@value #LOGGER}, and tells {@code metrics} everything. */
    public AccessLog(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /** The metrics it tells everything. */
    public ServerMetrics metrics() {
        return metrics;
    }

    /**
     * The line logged for one response: {@code transport=…} at its end for a reply not over HTTP, then, when the
     * request carried them, {@code traceparent=…} (well-formed only) and last {@code client_version=…} (escaped and
     * bounded, {@link ResponseSummary#clientVersion}; last, as it may hold spaces).
     */
    static String line(
            String transport, ResponseSummary summary, long bodyBytes, long nanosToLastByte, boolean completed) {
        String line = String.format(
                Locale.ROOT,
                "%s hashes=%d hits=%d bytes=%d ttlb_ms=%.1f outcome=%s",
                summary.method(),
                summary.hashes(),
                summary.hits(),
                bodyBytes,
                nanosToLastByte / 1e6,
                completed ? summary.outcome() : "abandoned");
        if (!HTTP.equals(transport)) {
            line += " transport=" + transport;
        }
        if (summary.traceparent() != null) {
            line += " traceparent=" + summary.traceparent();
        }
        if (summary.clientVersion() != null) {
            line += " client_version=" + PeerText.escape(summary.clientVersion());
        }
        return line;
    }

    /** Logs the {@link #line}. */
    @Override
    public void responded(
            String transport, ResponseSummary summary, long bodyBytes, long nanosToLastByte, boolean completed) {
        if (LOG.isInfoEnabled()) {
            LOG.info(line(transport, summary, bodyBytes, nanosToLastByte, completed));
        }
        metrics.responded(transport, summary, bodyBytes, nanosToLastByte, completed);
    }

    @Override
    public void replied(String method, ReplyError error) {
        metrics.replied(method, error);
    }

    @Override
    public void blobsLookedUp(String method, int requested, int available) {
        metrics.blobsLookedUp(method, requested, available);
    }

    @Override
    public void connectionOpened() {
        metrics.connectionOpened();
    }

    @Override
    public void connectionClosed() {
        metrics.connectionClosed();
    }

    @Override
    public void responseStarted() {
        metrics.responseStarted();
    }

    @Override
    public void responseDone() {
        metrics.responseDone();
    }

    @Override
    public void stalled(boolean stalled) {
        metrics.stalled(stalled);
    }

    @Override
    public void bytesWritten(long bytes) {
        metrics.bytesWritten(bytes);
    }

    @Override
    public void jwtRefused(Refusal.Reason reason) {
        metrics.jwtRefused(reason);
    }

    @Override
    public void refused(Limit limit) {
        metrics.refused(limit);
    }

    @Override
    public void transactionAccepted() {
        metrics.transactionAccepted();
    }

    @Override
    public void transactionRefused(String check) {
        metrics.transactionRefused(check);
    }

    @Override
    public void kzgVerified(long nanos) {
        metrics.kzgVerified(nanos);
    }

    @Override
    public void fsynced(long nanos) {
        metrics.fsynced(nanos);
    }

    @Override
    public void http2Stream(StreamEvent event) {
        metrics.http2Stream(event);
    }
}
