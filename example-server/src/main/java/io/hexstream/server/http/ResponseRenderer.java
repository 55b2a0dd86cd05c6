package io.hexstream.server.http;

import io.hexstream.codec.http.JsonResponse;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCounted;

/**
 * Turns the replies to one HTTP request into the HTTP response message written for it. The server's
 * own is {@link #streaming}: the {@link ResponseWriter}'s body, streamed by
 * {@link io.hexstream.codec.http.JsonResponseEncoder}; the benchmarks plug in their String-based and
 * pre-rendered peers here. Called on the channel's event loop; the bytes must be the same whichever
 * renders them (the response cap counts the replies as built). A renderer takes the replies over: it
 * hands them to a {@link ResponseWriter} or releases them.
 */
@FunctionalInterface
public interface ResponseRenderer {

    /**
     * The response, status 200: a {@link JsonResponse} or a {@code FullHttpResponse} with its headers
     * set. The caller writes it; the channel releases it.
     *
     * @param version the request's HTTP version
     * @param keepAlive whether the connection stays open after it
     */
    ReferenceCounted render(HttpVersion version, boolean keepAlive, Replies replies);

    /** The server's renderer: {@code writer}'s body as a {@link JsonResponse}. */
    static ResponseRenderer streaming(ResponseWriter writer) {
        return (version, keepAlive, replies) -> new JsonResponse(version, HttpResponseStatus.OK, keepAlive,
                writer.body(replies));
    }
}
