package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponseEncoder;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
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
        this.routes = routes;
        this.authenticator = authenticator;
        this.limits = limits;
        this.largeRequests = largeRequests;
        this.refusals = refusals;
        this.metrics = metrics;
    }

    @Override
    protected void initChannel(Channel ch) {
        ReadThrottle throttle = new ReadThrottle();
        if (metrics != ServerMetrics.NONE) {
            ch.pipeline().addLast(new TransportMeter(metrics));
        }
        ch.pipeline()
                .addLast(
                        new LingeringClose(limits.maxRequestBytes()),
                        throttle,
                        new HttpServerCodec(
                                new HttpDecoderConfig().setMaxChunkSize(MAX_CHUNK_SIZE), MAX_PIPELINE_DEPTH),
                        new StalledWriteTimeout(limits.writeTimeout(), metrics),
                        new RequestHeadCheck(routes, authenticator, refusals, throttle, metrics, largeRequests),
                        new RequestSizeLimit(limits.maxRequestBytes(), metrics),
                        new StreamedResponseEncoder(),
                        new ChunkedWriteHandler(),
                        new IdleTimeoutHandler(limits.idleTimeout(), metrics),
                        new ProtocolSwitch(),
                        new EngineApiHandler(limits.maxPipelined(), largeRequests, metrics));
    }
}
