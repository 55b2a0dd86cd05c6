package io.hexstream.server.ipc;

import io.hexstream.server.exchange.ReadThrottle;
import io.hexstream.server.http.EngineApiInitializer;
import io.hexstream.server.http.ProtocolDetector;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.StalledWriteTimeout;
import io.hexstream.server.message.MessageExchange;
import io.hexstream.server.message.ReplyFraming;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.stream.ChunkedInput;
import io.netty.handler.stream.ChunkedWriteHandler;
import java.util.concurrent.Executor;

/**
 * The pipeline of an IPC connection, told apart by its first bytes ({@link ProtocolDetector}): the HTTP/2 preface is
 * h2c and an HTTP/1.1 request line HTTP/1.1, each served as the Engine API's port serves it, with the same routes and
 * headers but no JWT (execution-apis #793: "IPC is h2c over UNIX socket — same paths and headers as TCP"); anything
 * else is newline-delimited JSON-RPC (Teku's IPC client): {@code ReadThrottle → LineBasedFrameDecoder (a line of at
 * most the JSON-RPC route's body limit and --max-request-bytes, LF or CRLF; longer closes the connection) →
 * StalledWriteTimeout → ChunkedWriteHandler → MessageExchange} (each line to the JSON-RPC route, the replies in order,
 * each a {@link ReplyLine}), with the bounds of the TCP ports.
 */
public final class IpcPipeline extends ChannelInitializer<Channel> {
    private static final ReplyFraming LINES = new ReplyFraming() {
        @Override
        public ChunkedInput<?> reply(ChunkedInput<ByteBuf> body) {
            return new ReplyLine(body);
        }

        @Override
        public String transport() {
            return "ipc";
        }

        @Override
        public Object goodbye() {
            return null;
        }
    };

    private final Route messages;
    private final EngineApiInitializer http;
    private final EngineApiInitializer.Limits limits;
    private final Executor largeRequests;
    private final ServerMetrics metrics;

    /**
     * @param messages what answers each line: the JSON-RPC route, unauthenticated (the socket file's permissions are
     *     the gate)
     * @param http what serves a connection that speaks HTTP/1.1 or h2c: the Engine API port's routes, without JWT
     * @param largeRequests where lines over 64 KiB are handled, off the event loop
     */
    public IpcPipeline(
            Route messages,
            EngineApiInitializer http,
            EngineApiInitializer.Limits limits,
            Executor largeRequests,
            ServerMetrics metrics) {
        this.messages = messages;
        this.http = http;
        this.limits = limits;
        this.largeRequests = largeRequests;
        this.metrics = metrics;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline()
                .addLast(new ProtocolDetector(
                        pipeline -> http.addHttp2(pipeline, ServerMetrics.IPC_H2),
                        pipeline -> http.addHttp1(pipeline, ServerMetrics.IPC_HTTP)));
        ch.pipeline()
                .addLast(
                        new ReadThrottle(),
                        new LineBasedFrameDecoder(
                                Math.min(limits.maxRequestBytes(), messages.maxBodyBytes()), true, true),
                        new StalledWriteTimeout(limits.writeTimeout(), metrics),
                        new ChunkedWriteHandler(),
                        new MessageExchange(
                                messages, limits.maxPipelined(), limits.idleTimeout(), largeRequests, LINES, metrics));
    }
}
