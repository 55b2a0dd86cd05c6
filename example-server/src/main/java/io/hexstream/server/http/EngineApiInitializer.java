package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponseEncoder;
import io.hexstream.server.auth.Authenticator;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.JsonRpcDispatcher;
import io.hexstream.server.rpc.RequestParser;
import io.hexstream.server.ssz.SszGetBlobs;
import io.hexstream.server.ssz.SszResponseEncoder;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The Engine API's pipeline, the one the server, the tests, the fuzz targets and the benchmarks use.
 * Per connection, from the socket:
 * {@code [TransportMeter (metrics on)] → ReadThrottle (reads paused while too many responses are unwritten) → HttpServerCodec → WriteTimeoutHandler → RequestHeadCheck (400/404/405/401 on the head) →
 * RequestSizeLimit, an HttpObjectAggregator (413 above the limit, before reading the body; 100 Continue after the head check)
 * → ChunkedWriteHandler → JsonResponseEncoder → [SszResponseEncoder (SSZ routes served)] → IdleTimeoutHandler → EngineApiHandler}. No compression:
 * responses are sent as they are whatever the client's {@code Accept-Encoding}.
 */
public final class EngineApiInitializer extends ChannelInitializer<Channel> {
    /**
     * The HTTP codec's own bound on requests decoded before their responses are encoded. Ours is
     * {@code maxPipelined} (reads paused), but what one read brought in (at most 64 KiB, the channel's
     * default) is decoded whole, and that may be thousands of tiny pipelined requests; past this the
     * codec would fail the connection.
     */
    static final int MAX_PIPELINE_DEPTH = 8192;
    /**
     * The largest body piece the HTTP codec hands on (its default is 8 KiB): one read's worth, so that a
     * big request (a 6-blob transaction is 1.7 MB of hex) is a few dozen pieces for the aggregator, not
     * hundreds.
     */
    static final int MAX_CHUNK_SIZE = 64 * 1024;

    /**
     * What bounds one connection.
     *
     * @param maxRequestBytes the largest request body taken ({@code --max-request-bytes}); larger get {@code 413}
     * @param maxPipelined requests taken before their responses are written ({@code --max-pipelined})
     * @param idleTimeout how long a connection may wait for a whole request while no response is being
     *     written ({@code --idle-timeout}; zero: no limit)
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

    private final Authenticator authenticator;
    private final RequestParser parser;
    private final JsonRpcDispatcher dispatcher;
    private final ResponseRenderer renderer;
    private final Limits limits;
    private final Executor largeRequests;
    private final RefusalLog refusals;
    private final ServerMetrics metrics;
    private final SszGetBlobs ssz;

    /**
     * @param largeRequests where request bodies over 64 KiB are parsed and dispatched, off the event
     *     loop: a {@link io.hexstream.server.rpc.BoundedExecutor} (its owner shuts it down)
     * @param metrics what the connections tell; with {@link ServerMetrics#NONE} no handler is added for them
     */
    public EngineApiInitializer(Authenticator authenticator, RequestParser parser, JsonRpcDispatcher dispatcher,
            ResponseRenderer renderer, Limits limits, Executor largeRequests, RefusalLog refusals, ServerMetrics metrics) {
        this(authenticator, parser, dispatcher, renderer, limits, largeRequests, refusals, metrics, null);
    }

    /**
     * A pipeline that also serves the binary SSZ routes ({@link io.hexstream.server.ssz.SszRoute}) with
     * {@code ssz}; {@code null}: they are {@code 404} on this port, as every path but {@code /}.
     */
    public EngineApiInitializer(Authenticator authenticator, RequestParser parser, JsonRpcDispatcher dispatcher,
            ResponseRenderer renderer, Limits limits, Executor largeRequests, RefusalLog refusals, ServerMetrics metrics,
            SszGetBlobs ssz) {
        this.ssz = ssz;
        this.authenticator = authenticator;
        this.parser = parser;
        this.dispatcher = dispatcher;
        this.renderer = renderer;
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
        ch.pipeline().addLast(throttle, new HttpServerCodec(new HttpDecoderConfig().setMaxChunkSize(MAX_CHUNK_SIZE), MAX_PIPELINE_DEPTH), new WriteTimeoutHandler(limits.writeTimeout(), metrics),
                new RequestHeadCheck(authenticator, refusals, throttle, metrics, ssz != null), new RequestSizeLimit(limits.maxRequestBytes(), metrics),
                new ChunkedWriteHandler(), new JsonResponseEncoder());
        if (ssz != null) {
            ch.pipeline().addLast(new SszResponseEncoder());
        }
        ch.pipeline().addLast(new IdleTimeoutHandler(limits.idleTimeout(), metrics),
                new EngineApiHandler(parser, dispatcher, renderer, limits.maxPipelined(), largeRequests, throttle, metrics, ssz));
    }
}
