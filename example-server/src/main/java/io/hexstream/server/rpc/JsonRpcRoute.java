package io.hexstream.server.rpc;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JSON-RPC 2.0 over HTTP ({@code POST /}), and over the message transports (WebSocket, IPC) the same: the body parsed
 * ({@link RequestParser}), its requests dispatched ({@link JsonRpcDispatcher}), and the replies rendered
 * ({@link ResponseRenderer}) as the response: {@code 200} with the replies, or an empty {@code 200} for notifications
 * only. A body that does not parse is answered with one error reply, id {@code null}. Needs a JWT; takes bodies up to
 * {@code --max-request-bytes} (an empty {@code 413} above, the connection kept).
 */
public final class JsonRpcRoute implements Route {
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcRoute.class);
    private static final byte[] NULL_ID = "null".getBytes(StandardCharsets.US_ASCII);

    private final RequestParser parser;
    private final JsonRpcDispatcher dispatcher;
    private final ResponseRenderer renderer;
    private final int maxRequestBytes;
    private final ServerMetrics metrics;

    public JsonRpcRoute(
            RequestParser parser,
            JsonRpcDispatcher dispatcher,
            ResponseRenderer renderer,
            int maxRequestBytes,
            ServerMetrics metrics) {
        this.parser = parser;
        this.dispatcher = dispatcher;
        this.renderer = renderer;
        this.maxRequestBytes = maxRequestBytes;
        this.metrics = metrics;
    }

    @Override
    public boolean needsJwt() {
        return true;
    }

    @Override
    public int maxBodyBytes() {
        return maxRequestBytes;
    }

    /** Parses {@code body} and dispatches its requests; on the event loop, or on the large-request executor. */
    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        RequestParser.Parsed parsed;
        try {
            parsed = parser.parse(body, dispatcher::elements);
        } catch (RpcException e) {
            metrics.replied(ServerMetrics.NO_METHOD, e.error());
            render(
                    new Replies(
                            List.of(RpcReply.failure(NULL_ID, e.error(), e.getMessage())),
                            false,
                            new ResponseSummary(ServerMetrics.NO_METHOD, 0, 0, e.error())),
                    sink);
            return;
        }
        dispatcher.dispatch(parsed.requests(), parsed.batch(), sink.executor(), replies -> render(replies, sink));
    }

    /**
     * Renders {@code replies} on the channel's event loop, which takes them over; released instead if the connection is
     * gone.
     */
    private void render(Replies replies, ReplySink sink) {
        if (!sink.executor().inEventLoop()) {
            try {
                sink.executor().execute(() -> render(replies, sink));
            } catch (RejectedExecutionException stopped) {
                replies.release();
                LOG.debug("a request answered after the event loop stopped");
            }
        } else if (sink.abandoned()) {
            replies.release();
            LOG.trace("replies to a closed connection dropped");
        } else if (replies.isEmpty()) {
            sink.respondEmpty(HttpResponseStatus.OK, replies.summary()); // notifications only
        } else {
            renderer.render(replies, sink);
        }
    }
}
