package io.hexstream.server.metrics;

import io.hexstream.server.auth.Refusal;

/** {@link ServerMetrics#NONE}: metrics off, every call recorded nowhere. */
final class NoMetrics implements ServerMetrics {
    @Override
    public void replied(String method, ReplyError error) {}

    @Override
    public void responded(
            String transport, ResponseSummary summary, long bodyBytes, long nanosToLastByte, boolean completed) {}

    @Override
    public void blobsLookedUp(String method, int requested, int available) {}

    @Override
    public void http2Stream(StreamEvent event) {}

    @Override
    public void connectionOpened() {}

    @Override
    public void connectionClosed() {}

    @Override
    public void responseStarted() {}

    @Override
    public void responseDone() {}

    @Override
    public void stalled(boolean stalled) {}

    @Override
    public void bytesWritten(long bytes) {}

    @Override
    public void jwtRefused(Refusal.Reason reason) {}

    @Override
    public void refused(Limit limit) {}

    @Override
    public void transactionAccepted() {}

    @Override
    public void transactionRefused(String check) {}

    @Override
    public void kzgVerified(long nanos) {}

    @Override
    public void fsynced(long nanos) {}
}
