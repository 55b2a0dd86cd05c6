package io.hexstream.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaders;

/**
 * One entry of a {@link RouteTable}: what a request on it needs before its body is read, and how it is answered. Routes
 * live with what they serve (JSON-RPC in {@code rpc}, the binary routes in {@code ssz}); the wiring registers them.
 * Thread-safe: one instance serves every connection of its port.
 */
public interface Route {

    /** Whether a request needs a valid JWT ({@code 401} without), on a port that checks them. */
    boolean needsJwt();

    /**
     * The largest body taken, in bytes: a larger {@code Content-Length} is refused with {@code 413} on the head, before
     * any body byte is buffered. A body without {@code Content-Length} is bounded by the port's
     * {@code --max-request-bytes}, and then by what the route decodes.
     */
    int maxBodyBytes();

    /**
     * The answer ({@code 413}) to a {@code Content-Length} of {@code contentLength} bytes, over
     * {@link #maxBodyBytes()}, after which the connection closes; {@code null} (the default): an empty {@code 413}, the
     * body dropped unread and the connection kept as the request asks.
     */
    default Rejection tooLarge(long contentLength) {
        return null;
    }

    /**
     * The answer to a request refused for its other headers (e.g. {@code 415} for its {@code Content-Type}), asked once
     * its JWT and length passed; {@code null} (the default) to read its body.
     */
    default Rejection rejectHead(HttpHeaders headers) {
        return null;
    }

    /**
     * Handles one whole request, its head passed by the table's checks: sooner or later exactly one call to
     * {@code responder}. Called on the channel's event loop, or for a body over 64 KiB on the large-request executor;
     * it must not block.
     *
     * @param body the whole body, its indices unchanged; valid during this call only (retain it to keep it)
     */
    void handle(ByteBuf body, Responder responder);
}
