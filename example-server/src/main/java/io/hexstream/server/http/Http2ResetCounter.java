package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.StreamEvent;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameLogger;
import io.netty.handler.logging.LogLevel;

/**
 * Counts the {@code RST_STREAM} frames of an HTTP/2 connection as its frame codec reads and writes them: one received
 * is a stream {@link StreamEvent#RESET_BY_CLIENT}; one sent with {@code REFUSED_STREAM} a stream
 * {@link StreamEvent#REFUSED} over {@code SETTINGS_MAX_CONCURRENT_STREAMS} (the codec refuses those before any stream
 * exists, so nothing else sees them). Frames are also logged, as Netty's frame logger does, at TRACE on this class's
 * logger.
 */
final class Http2ResetCounter extends Http2FrameLogger {
    private final ServerMetrics metrics;

    Http2ResetCounter(ServerMetrics metrics) {
        super(LogLevel.TRACE, Http2ResetCounter.class);
        this.metrics = metrics;
    }

    @Override
    public void logRstStream(Direction direction, ChannelHandlerContext ctx, int streamId, long errorCode) {
        if (direction == Direction.INBOUND) {
            metrics.http2Stream(StreamEvent.RESET_BY_CLIENT);
        } else if (errorCode == Http2Error.REFUSED_STREAM.code()) {
            metrics.http2Stream(StreamEvent.REFUSED);
        }
        super.logRstStream(direction, ctx, streamId, errorCode);
    }
}
