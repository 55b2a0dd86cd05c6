package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.metrics.StreamEvent;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The pipeline of a port serving a {@link RouteTable}, the one the server, the tests, the fuzz targets and the
 * benchmarks use. Per connection, from the socket: {@code [TransportMeter (metrics on)] → LingeringClose (after a
 * refusal: output shut, input dropped, then closed) → ReadThrottle (reads paused while too many responses are
 * unwritten) → HttpServerCodec → StalledWriteTimeout → RequestHeadCheck (the route; 400/404/405/401/413/417/503 on the
 * head) → RequestSizeLimit, an HttpObjectAggregator (413 above --max-request-bytes for a body without Content-Length;
 * 100 Continue after the head check; both passed on, written in turn by EngineApiHandler) → StreamedResponseEncoder
 * (JSON and SSZ bodies) → ChunkedWriteHandler (other chunked inputs, as the benchmarks' file regions) →
 * IdleTimeoutHandler → ProtocolSwitch (a route's {@link SwitchingProtocols}: the HTTP handlers replaced once its 101 is
 * written) → EngineApiHandler (each request to its route, responses in request order)}. A request body over 64 KiB is
 * handled on the large-request executor; when its queue is full the request gets {@code 503} unparsed. No compression:
 * responses are sent as they are whatever the client's {@code Accept-Encoding}.
 *
 * <p>{@link #withH2c} (the Engine API port; not {@code --rpc-port} or the metrics port) puts a {@link ProtocolDetector}
 * first (the HTTP/2 preface: {@link #addHttp2}) and {@link H2cUpgrade} after the head check; every stream of an HTTP/2
 * connection runs the handlers from {@code RequestHeadCheck} on ({@link Http2Streams}). The IPC socket uses
 * {@link #addHttp1} and {@link #addHttp2} for a connection that speaks HTTP.
 */
public final class EngineApiInitializer extends ChannelInitializer<Channel> {
    /**
     * The HTTP codec's own bound on requests decoded before their responses are encoded. Ours is {@code maxPipelined}
     * (reads paused), but what one read brought in (at most 64 KiB, the channel's default) is decoded whole, and that
     * may be thousands of tiny pipelined requests; past this the codec would fail the connection.
     */
    static final int MAX_PIPELINE_DEPTH = 8192;
    /**
     * The largest body piece the HTTP codec hands on (its default is 8 KiB): one read's worth, so that a big request (a
     * 6-blob transaction is 1.7 MB of hex) is a few dozen pieces for the aggregator, not hundreds.
     */
    static final int MAX_CHUNK_SIZE = 64 * 1024;
    /**
     * The largest request head taken, in bytes: HTTP/1.1's request line and header fields (the codec's default; more is
     * a malformed request, {@code 400}), and HTTP/2's {@code SETTINGS_MAX_HEADER_LIST_SIZE} (RFC 9113 6.5.2).
     */
    static final int MAX_HEADER_BYTES = 8192;

    /**
     * What bounds one connection.
     *
     * @param maxRequestBytes the largest request body taken ({@code --max-request-bytes}); larger get {@code 413}
     * @param maxPipelined requests taken before their responses are written ({@code --max-pipelined})
     * @param idleTimeout how long a connection may wait for a whole request while no response is being written
     *     ({@code --idle-timeout}; zero: no limit)
     * @param writeTimeout how long a response may make no progress ({@code --write-timeout}; zero: no limit)
     */
    public record Limits(int maxRequestBytes, int maxPipelined, Duration idleTimeout, Duration writeTimeout) {
        public Limits {
            if (maxRequestBytes < 0 || maxPipelined < 1 || idleTimeout.isNegative() || writeTimeout.isNegative()) {
                throw new IllegalArgumentException("limits out of range: " + maxRequestBytes + " request bytes, "
                        + maxPipelined + " pipelined, idle " + idleTimeout + ", write " + writeTimeout);
            }
        }
    }

    private final RouteTable routes;
    private final Authenticator authenticator;
    private final Limits limits;
    private final Executor largeRequests;
    private final RefusalLog refusals;
    private final ServerMetrics metrics;
    /** {@code SETTINGS_MAX_CONCURRENT_STREAMS}; 0: no HTTP/2. */
    private final int maxConcurrentStreams;

    /**
     * @param authenticator what the routes that need a JWT are checked with ({@link Authenticator#NONE} on a port
     *     without JWT)
     * @param largeRequests where request bodies over 64 KiB are handled, off the event loop: a bounded executor (its
     *     owner shuts it down); a {@link java.util.concurrent.ThreadPoolExecutor}'s full queue is seen on a request's
     *     head, any executor's refusal once its body is whole
     * @param metrics what the connections tell; with {@link ServerMetrics#NONE} no handler is added for them
     */
    public EngineApiInitializer(
            RouteTable routes,
            Authenticator authenticator,
            Limits limits,
            Executor largeRequests,
            RefusalLog refusals,
            ServerMetrics metrics) {
        this(routes, authenticator, limits, largeRequests, refusals, metrics, 0);
    }

    private EngineApiInitializer(
            RouteTable routes,
            Authenticator authenticator,
            Limits limits,
            Executor largeRequests,
            RefusalLog refusals,
            ServerMetrics metrics,
            int maxConcurrentStreams) {
        this.routes = routes;
        this.authenticator = authenticator;
        this.limits = limits;
        this.largeRequests = largeRequests;
        this.refusals = refusals;
        this.metrics = metrics;
        this.maxConcurrentStreams = maxConcurrentStreams;
    }

    /**
     * This pipeline with h2c beside HTTP/1.1 (execution-apis #793, "Transport & framing"): a connection that opens with
     * the HTTP/2 preface (prior knowledge), or whose first request asks {@code Upgrade: h2c}, is served by HTTP/2, each
     * stream as one request through this pipeline's routes ({@link Http2Streams}).
     *
     * @param maxConcurrentStreams the {@code SETTINGS_MAX_CONCURRENT_STREAMS} sent: streams a client may have open
     */
    public EngineApiInitializer withH2c(int maxConcurrentStreams) {
        if (maxConcurrentStreams < 1) {
            throw new IllegalArgumentException("max concurrent streams out of range: " + maxConcurrentStreams);
        }
        return new EngineApiInitializer(
                routes, authenticator, limits, largeRequests, refusals, metrics, maxConcurrentStreams);
    }

    @Override
    protected void initChannel(Channel ch) {
        if (metrics != ServerMetrics.NONE) {
            ch.pipeline().addLast(new TransportMeter(metrics));
        }
        if (maxConcurrentStreams > 0) {
            ch.pipeline().addLast(new ProtocolDetector(pipeline -> addHttp2(pipeline, ServerMetrics.H2), null));
        }
        addHttp1(ch.pipeline(), ServerMetrics.HTTP);
    }

    /**
     * Adds the HTTP/1.1 handlers of a connection at {@code pipeline}'s end (with the {@code Upgrade: h2c} of its first
     * request where {@link #withH2c} is on), its responses counted as {@code transport}.
     */
    public void addHttp1(ChannelPipeline pipeline, String transport) {
        ReadThrottle throttle = new ReadThrottle();
        HttpServerCodec codec = new HttpServerCodec(
                new HttpDecoderConfig().setMaxChunkSize(MAX_CHUNK_SIZE).setMaxHeaderSize(MAX_HEADER_BYTES),
                MAX_PIPELINE_DEPTH);
        pipeline.addLast(
                new LingeringClose(limits.maxRequestBytes()),
                throttle,
                codec,
                new StalledWriteTimeout(limits.writeTimeout(), metrics),
                new RequestHeadCheck(routes, authenticator, refusals, throttle, metrics, largeRequests));
        if (maxConcurrentStreams > 0) {
            String h2 = ServerMetrics.HTTP.equals(transport) ? ServerMetrics.H2 : ServerMetrics.IPC_H2;
            pipeline.addLast(new H2cUpgrade(codec, () -> h2cUpgrade(h2), limits.maxRequestBytes()));
        }
        pipeline.addLast(
                new RequestSizeLimit(limits.maxRequestBytes(), metrics),
                new StreamedResponseEncoder(),
                new ChunkedWriteHandler(),
                new IdleTimeoutHandler(limits.idleTimeout(), metrics),
                new ProtocolSwitch(),
                new EngineApiHandler(limits.maxPipelined(), largeRequests, metrics, transport));
    }

    /**
     * Takes out the handlers of HTTP/1.1's requests ({@link #addHttp1}: from the head check to
     * {@link EngineApiHandler}) when a connection leaves HTTP/1.1 for another protocol; the socket-side handlers, the
     * HTTP codec, the {@code ChunkedWriteHandler}, {@link ProtocolSwitch} and {@link H2cUpgrade} stay, for the caller.
     */
    static void removeRequestHandlers(ChannelPipeline pipeline) {
        pipeline.remove(RequestHeadCheck.class);
        pipeline.remove(RequestSizeLimit.class);
        pipeline.remove(StreamedResponseEncoder.class);
        pipeline.remove(IdleTimeoutHandler.class);
        pipeline.remove(EngineApiHandler.class);
    }

    /**
     * Adds the HTTP/2 handlers of a connection at {@code pipeline}'s end, for a connection whose next bytes are the
     * client's connection preface; its responses counted as {@code transport}.
     */
    public void addHttp2(ChannelPipeline pipeline, String transport) {
        Http2FrameCodec frames = Http2Streams.frameCodec(maxConcurrentStreams, metrics);
        pipeline.addLast(
                new LingeringClose(limits.maxRequestBytes()),
                new ReadThrottle(),
                new StalledWriteTimeout(limits.writeTimeout(), metrics),
                frames);
        pipeline.addLast(connectionHandlers(frames, transport));
    }

    /** The codec of HTTP/1.1's {@code Upgrade: h2c}: HTTP/2's handlers, for the HTTP/1.1 ones. */
    private Http2ServerUpgradeCodec h2cUpgrade(String transport) {
        Http2FrameCodec frames = Http2Streams.frameCodec(maxConcurrentStreams, metrics);
        return new Http2ServerUpgradeCodec(frames, connectionHandlers(frames, transport));
    }

    /** What follows the frame codec of an HTTP/2 connection: its streams, then the connection's watch. */
    private ChannelHandler[] connectionHandlers(Http2FrameCodec frames, String transport) {
        return new ChannelHandler[] {
            new Http2MultiplexHandler(new Http2Streams(this, frames, transport)),
            new Http2ConnectionWatch(frames, limits.idleTimeout(), metrics)
        };
    }

    /**
     * The handlers of one HTTP/2 stream of the connection {@code frames} codes, from the stream frames to the route,
     * its responses counted as given.
     */
    void addStream(ChannelPipeline pipeline, Http2FrameCodec frames, String transport) {
        ReadThrottle throttle = new ReadThrottle();
        if (metrics != ServerMetrics.NONE) {
            metrics.http2Stream(StreamEvent.OPENED);
            pipeline.addLast(TransportMeter.stream(metrics));
        }
        Http2StreamedResponseEncoder responses = new Http2StreamedResponseEncoder(frames, metrics);
        pipeline.addLast(
                throttle,
                StalledWriteTimeout.forStream(limits.writeTimeout(), metrics, responses::unsent),
                new Http2StreamFrameToHttpObjectCodec(true),
                new Http2StreamAdapter(),
                new RequestHeadCheck(routes, authenticator, refusals, throttle, metrics, largeRequests),
                new RequestSizeLimit(limits.maxRequestBytes(), metrics),
                responses,
                new IdleTimeoutHandler(limits.idleTimeout(), metrics),
                new EngineApiHandler(1, largeRequests, metrics, transport));
    }
}
