package io.hexstream.server.rpc;

import io.hexstream.codec.http.JsonResponse;
import io.hexstream.server.http.Responder;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Turns the replies to one HTTP request into the HTTP response written for it, handed to the request's
 * {@link Responder}. The server's own is {@link #streaming}: the {@link ResponseWriter}'s body as a
 * {@link JsonResponse}, streamed by {@link io.hexstream.codec.http.StreamedResponseEncoder}; the benchmarks plug in
 * their String-based and pre-rendered peers here. Called on the channel's event loop; the bytes must be the same
 * whichever renders them (the response cap is counted with the server's writer).
 */
@FunctionalInterface
public interface ResponseRenderer {

    /**
     * Hands {@code responder} the response to {@code replies} (not empty), status 200, with their
     * {@link Replies#summary()}. Takes the replies over: their bodies go into the response, or are released.
     */
    void render(Replies replies, Responder responder);

    /** The server's renderer: {@code writer}'s body as a {@link JsonResponse}. */
    static ResponseRenderer streaming(ResponseWriter writer) {
        return (replies, responder) -> responder.respond(
                new JsonResponse(
                        responder.version(), HttpResponseStatus.OK, responder.keepAlive(), writer.body(replies)),
                replies.summary());
    }
}
