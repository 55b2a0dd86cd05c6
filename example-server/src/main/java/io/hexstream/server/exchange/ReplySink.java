package io.hexstream.server.exchange;

import io.hexstream.codec.body.StreamedBody;
import io.hexstream.server.metrics.ResponseSummary;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.concurrent.EventExecutor;

/**
 * Where a route hands over the reply to one request, whatever carries it: an HTTP/1.1 response, a WebSocket or IPC
 * message, an HTTP/2 stream. It knows no connection: no protocol version, no keep-alive; whether the connection stays
 * open after the reply is the transport's to decide. Exactly one of the {@code respond} methods is called, once, from
 * any thread; the transport writes the reply in its turn. {@code summary} is what the metrics and the access log hear
 * once it is written ({@code null}: nothing).
 *
 * <p>A status and headers mean what they mean in HTTP (RFC 9110); a transport without them (WebSocket, IPC) carries a
 * streamed body as its message, {@link #respondEmpty} as no message, and closes the connection on a whole body, which
 * only an HTTP route gives.
 */
public interface ReplySink {

    /**
     * The request's headers (e.g. its {@code Accept}), as received; read them, do not change them. None on a transport
     * without headers.
     */
    HttpHeaders requestHeaders();

    /** The channel's event loop: where asynchronous work hands its outcome back. */
    EventExecutor executor();

    /** The connection is gone: nothing will be written, so a route may skip making its reply. */
    boolean abandoned();

    /**
     * A reply whose body, of exact length, is produced chunk by chunk as the transport drains; {@code body} is owned
     * from here on.
     */
    void respond(HttpResponseStatus status, StreamedBody body, ResponseSummary summary);

    /**
     * A reply whose small body is given whole: {@code content}, owned from here on. {@code headers} are the route's
     * ({@code Content-Type}; a {@code Content-Length} only where it is not the content's, as a {@code HEAD}'s); the
     * transport adds the content's length (but to a {@code 204}) and its own headers.
     */
    void respond(HttpResponseStatus status, HttpHeaders headers, ByteBuf content, ResponseSummary summary);

    /** {@link #respond(HttpResponseStatus, HttpHeaders, ByteBuf, ResponseSummary)} with a {@code Content-Type} only. */
    default void respond(
            HttpResponseStatus status, CharSequence contentType, ByteBuf content, ResponseSummary summary) {
        respond(
                status,
                DefaultHttpHeadersFactory.headersFactory().newHeaders().set(HttpHeaderNames.CONTENT_TYPE, contentType),
                content,
                summary);
    }

    /** A reply without body, such as {@code 204}; on a transport of messages, no message at all. */
    void respondEmpty(HttpResponseStatus status, ResponseSummary summary);
}
