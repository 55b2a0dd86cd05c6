package io.hexstream.server.http;

import io.hexstream.server.exchange.InOrderExchange;
import io.hexstream.server.exchange.ReplySink;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;

/**
 * One entry of a {@link RouteTable}: what a request on it needs before its body is read, and how it is answered. Routes
 * live with what they serve (JSON-RPC in {@code rpc}, the binary routes in {@code ssz}); the wiring registers them.
 * Thread-safe: one instance serves every connection of its port.
 */
public interface Route {

    /** Whether a request needs a valid JWT ({@code 401} without), on a port that checks them. */
    boolean needsJwt();

    /**
     * The largest body taken, in bytes, whatever its framing: a larger {@code Content-Length} is refused with
     * {@code 413} on the head, before any body byte is buffered; a body without {@code Content-Length} (chunked) as
     * soon as it passes this. At most the port's {@code --max-request-bytes} is taken either way.
     */
    int maxBodyBytes();

    /**
     * The answer ({@code 413}) to a {@code Content-Length} of {@code contentLength} bytes, over
     * {@link #maxBodyBytes()}, or with {@code contentLength} {@code -1} to a body without one (chunked) that has passed
     * it; the connection closes after it. {@code null} (the default): an empty {@code 413}, the body dropped unread.
     */
    default Rejection tooLarge(long contentLength) {
        return null;
    }

    /**
     * The answer to a request refused for its version or its other headers (e.g. {@code 415} for its
     * {@code Content-Type}), asked once its JWT and length passed; {@code null} (the default) to read its body.
     *
     * @param version {@code HTTP/1.0} or {@code HTTP/1.1} (a later 1.x is taken as 1.1, any other refused before)
     */
    default Rejection rejectHead(HttpVersion version, HttpHeaders headers) {
        return null;
    }

    /**
     * Handles one whole request, its head passed by the table's checks: sooner or later exactly one reply to
     * {@code sink}, which knows no transport (the same route serves HTTP/1.1, WebSocket and IPC). Called on the
     * channel's event loop, or for a body over {@link InOrderExchange#LARGE_REQUEST_BYTES} on the large-request
     * executor; it must not block.
     *
     * @param body the whole body, its indices unchanged; valid during this call only (retain it to keep it)
     */
    void handle(ByteBuf body, ReplySink sink);
}
