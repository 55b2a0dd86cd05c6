package io.hexstream.server.http;

import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.metrics.ResponseSummary;
import io.netty.handler.codec.http.HttpVersion;

/**
 * The {@link ReplySink} of an HTTP/1.1 request, with what only HTTP/1.1 has, for the answers made in its own terms: the
 * switch of protocols of an upgrade route ({@link RouteTable.Builder#upgrade}, reached only through HTTP/1.1's
 * {@code Upgrade}), or a response a handler closer to the socket writes. A route that is not HTTP/1.1's alone uses the
 * {@link ReplySink}.
 */
public interface Http1Responder extends ReplySink {

    /** The request's HTTP version. */
    HttpVersion version();

    /** Whether the connection stays open after the response. */
    boolean keepAlive();

    /**
     * A response written as it is (a {@link SwitchingProtocols}, a {@code FullHttpResponse} made for {@link #version()}
     * and {@link #keepAlive()}, or a message a handler closer to the socket writes), its body {@code bodyBytes} long;
     * owned from here on.
     */
    void respond(Object response, long bodyBytes, ResponseSummary summary);
}
