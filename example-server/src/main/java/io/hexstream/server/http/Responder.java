package io.hexstream.server.http;

import io.hexstream.codec.http.StreamedResponse;
import io.hexstream.server.metrics.ResponseSummary;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.EventExecutor;

/**
 * Where a {@link Route} hands the response to one request; it goes out in request order. Exactly one of the
 * {@code respond} methods is called, once, from any thread. {@code summary} is what the metrics and the access log hear
 * once the response is written.
 */
public interface Responder {

    /** The request's HTTP version. */
    HttpVersion version();

    /** The request's headers (e.g. its {@code Accept}), as received; read them, do not change them. */
    HttpHeaders requestHeaders();

    /** Whether the connection stays open after the response. */
    boolean keepAlive();

    /** The channel's event loop: where asynchronous work hands its outcome back. */
    EventExecutor executor();

    /** The connection is gone: nothing will be written, so a route may skip making its response. */
    boolean abandoned();

    /** A response of exact length, made for {@link #version()} and {@link #keepAlive()}; owned from here on. */
    void respond(StreamedResponse response, ResponseSummary summary);

    /**
     * A response written as it is (a {@code FullHttpResponse}, or a message a handler closer to the socket writes), its
     * body {@code bodyBytes} long; owned from here on.
     */
    void respond(Object response, long bodyBytes, ResponseSummary summary);

    /** A response without body, such as {@code 204}. */
    void respondEmpty(HttpResponseStatus status, ResponseSummary summary);

    /** A response whose body is {@code reason} and a line feed, {@code text/plain; charset=utf-8}. */
    void respondText(HttpResponseStatus status, String reason, ResponseSummary summary);
}
