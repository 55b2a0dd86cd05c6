package io.hexstream.server.ssz;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A {@code GET} route answering one fixed JSON document, {@code 200} with {@code application/json} (execution-apis
 * #793, {@code refactor.md}, "Capabilities &amp; identification": served as JSON whatever {@code Accept} says,
 * {@code Eth-Execution-Version} ignored). Needs a JWT; takes no body. Thread-safe.
 */
final class JsonDocumentRoute implements Route {
    private final String method;
    private final byte[] document;
    private final ServerMetrics metrics;

    /**
     * @param method the metrics' and access log's label
     * @param document the body, UTF-8 JSON; never modified
     */
    JsonDocumentRoute(String method, byte[] document, ServerMetrics metrics) {
        this.method = method;
        this.document = document;
        this.metrics = metrics;
    }

    @Override
    public boolean needsJwt() {
        return true;
    }

    @Override
    public int maxBodyBytes() {
        return 0;
    }

    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        metrics.replied(method, null);
        sink.respond(
                HttpResponseStatus.OK,
                HttpHeaderValues.APPLICATION_JSON,
                Unpooled.wrappedBuffer(document),
                new ResponseSummary(method, 0, 0, null));
    }
}
