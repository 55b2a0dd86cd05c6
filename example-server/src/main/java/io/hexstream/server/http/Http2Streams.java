package io.hexstream.server.http;

import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http2.DefaultHttp2Connection;
import io.netty.handler.codec.http2.DefaultHttp2RemoteFlowController;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.WeightedFairQueueByteDistributor;

/**
 * The streams of an HTTP/2 connection (h2c, RFC 9113), each a channel of its own served by the HTTP/1.1 handlers of its
 * port, one request a stream: {@code ReadThrottle → Http2StreamFrameToHttpObjectCodec (HEADERS and DATA as the
 * HttpObjects of HTTP/1.1, :authority as Host) → Http2StreamAdapter → RequestHeadCheck (the route, the JWT of this
 * stream) → RequestSizeLimit → Http2StreamedResponseEncoder → IdleTimeoutHandler → EngineApiHandler}. So a route
 * answers a stream with the status, headers and body it gives HTTP/1.1. A streamed body goes to the connection's flow
 * controller whole ({@link Http2BodyFrames}), which takes a chunk from it only when the stream's window, the
 * connection's and the socket let some of it go, and cuts it there into DATA frames of the client's
 * {@code SETTINGS_MAX_FRAME_SIZE} as slices, not copies: a stream holds at most one chunk whatever window the client
 * advertises, and a stream whose window stays shut holds back no other. Other bodies (small, whole) are Netty's DATA
 * frames, under the same flow control.
 *
 * <p>The connection's settings and bounds (RFC 9113 6.5.2; CVE-2023-44487, CVE-2024-27316, CVE-2019-9512/9515/9518,
 * CVE-2025-55163) are {@link #frameCodec}'s.
 */
public final class Http2Streams extends ChannelInitializer<Http2StreamChannel> {
    /**
     * {@code SETTINGS_INITIAL_WINDOW_SIZE} sent, in bytes: what a client may send on a stream before we read it, and
     * (doubled) the connection's receive window, opened at once. #793 asks for at least 1 MiB.
     */
    public static final int INITIAL_WINDOW_SIZE = 1 << 20;
    /**
     * RST_STREAM frames a client may send per {@link #RST_WINDOW_SECONDS} before the connection is closed with
     * {@code ENHANCE_YOUR_CALM} (CVE-2023-44487, "rapid reset"); the same bound holds for the resets a client makes us
     * send (CVE-2025-55163).
     */
    public static final int MAX_RST_FRAMES = 200;
    /** The window of {@link #MAX_RST_FRAMES}, in seconds. */
    public static final int RST_WINDOW_SECONDS = 30;
    /**
     * Control frames (SETTINGS and PING acknowledgements, resets) queued unwritten before the connection is closed:
     * reads also stop while the socket is full ({@link Http2ConnectionWatch}), so only a client that keeps its socket
     * full and floods on gets there (CVE-2019-9512, CVE-2019-9515).
     */
    public static final int MAX_QUEUED_CONTROL_FRAMES = 1024;
    /**
     * Bytes a stream may write in its turn when streams share a connection's window and socket: a reply's chunk, so
     * that a turn is whole frames of one chunk, and a reply ahead finishes sooner rather than every reply finishing
     * last (Netty's default turn, 1 KiB, cuts each stream's frames to 1 KiB whenever the socket backs up).
     */
    public static final int ALLOCATION_QUANTUM = 256 * 1024;
    /** Empty DATA frames in a row before the connection is closed (CVE-2019-9518). */
    public static final int MAX_CONSECUTIVE_EMPTY_DATA_FRAMES = 2;

    private final EngineApiInitializer port;
    private final Http2FrameCodec frames;
    private final String transport;

    /**
     * @param frames the connection's frame codec
     * @param transport the label of the streams' responses in the metrics
     */
    Http2Streams(EngineApiInitializer port, Http2FrameCodec frames, String transport) {
        this.port = port;
        this.frames = frames;
        this.transport = transport;
    }

    @Override
    protected void initChannel(Http2StreamChannel stream) {
        stream.config().setWriteBufferWaterMark(EngineServer.WATER_MARK);
        port.addStream(stream.pipeline(), frames, transport);
    }

    /**
     * The connection's frame codec: the settings sent ({@link #INITIAL_WINDOW_SIZE}, {@code maxConcurrentStreams},
     * {@code SETTINGS_MAX_HEADER_LIST_SIZE} of {@link EngineApiInitializer#MAX_HEADER_BYTES}: HTTP/1.1's header limit,
     * not HTTP/2's unlimited default, so that headers and their CONTINUATION frames are bounded alike, CVE-2024-27316),
     * the flood bounds above, and a graceful close that lets the streams in flight finish for the server's drain
     * timeout after its GOAWAY.
     */
    static Http2FrameCodec frameCodec(int maxConcurrentStreams, ServerMetrics metrics) {
        Http2Settings settings = Http2Settings.defaultSettings()
                .initialWindowSize(INITIAL_WINDOW_SIZE)
                .maxConcurrentStreams(maxConcurrentStreams)
                .maxHeaderListSize(EngineApiInitializer.MAX_HEADER_BYTES);
        Http2FrameCodecBuilder codec = new ServerCodecBuilder().initialSettings(settings);
        if (metrics != ServerMetrics.NONE) {
            codec.frameLogger(new Http2ResetCounter(metrics));
        }
        return codec.decoderEnforceMaxRstFramesPerWindow(MAX_RST_FRAMES, RST_WINDOW_SECONDS)
                .encoderEnforceMaxRstFramesPerWindow(MAX_RST_FRAMES, RST_WINDOW_SECONDS)
                .encoderEnforceMaxQueuedControlFrames(MAX_QUEUED_CONTROL_FRAMES)
                .decoderEnforceMaxConsecutiveEmptyDataFrames(MAX_CONSECUTIVE_EMPTY_DATA_FRAMES)
                .gracefulShutdownTimeoutMillis(EngineServer.DRAIN_TIMEOUT.toMillis())
                .build();
    }

    /** Netty's server codec, with every bound it applies. */
    private static final class ServerCodecBuilder extends Http2FrameCodecBuilder {
        ServerCodecBuilder() {
            // A server's connection (Netty's builder takes it for its own), its streams taking turns of
            // ALLOCATION_QUANTUM bytes.
            DefaultHttp2Connection connection = new DefaultHttp2Connection(true);
            WeightedFairQueueByteDistributor turns = new WeightedFairQueueByteDistributor(connection);
            turns.allocationQuantum(ALLOCATION_QUANTUM);
            connection.remote().flowController(new DefaultHttp2RemoteFlowController(connection, turns));
            connection(connection);
        }
    }
}
