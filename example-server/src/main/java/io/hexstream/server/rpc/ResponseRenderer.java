package io.hexstream.server.rpc;

import io.hexstream.server.exchange.ReplySink;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Turns the replies to one request into the reply handed to the request's {@link ReplySink}, whatever the transport,
 * and makes those replies ({@link #reply}). The server's own is {@link #streaming}: each reply written into its own
 * body when its method returns, the {@link ResponseWriter}'s body of them (a {@code JsonBody}, a {@code StreamedBody}
 * of {@code application/json}), streamed by the transport as it drains; the benchmarks plug in their String-based and
 * pre-rendered peers here. {@link #render} is called on the channel's event loop; the bytes must be the same whichever
 * renders them (the response cap is counted on the replies {@link #reply} makes).
 */
@FunctionalInterface
public interface ResponseRenderer {

    /**
     * Hands {@code sink} the reply to {@code replies} (not empty), status 200, with their {@link Replies#summary()}.
     * Takes the replies over: their bodies go into the response, or are released.
     */
    void render(Replies replies, ReplySink sink);

    /**
     * The reply to a request with {@code id} whose method returned {@code result}, on the thread that called it: the
     * server's writes the result now, into the reply's own body ({@link RpcReply#success}). A renderer that answers
     * from bytes of its own may make a reply that only names them, for its {@link #render} to recognise.
     *
     * @param id the JSON token of the request's id, UTF-8
     */
    default RpcReply reply(byte[] id, RpcResult result) {
        return RpcReply.success(id, result);
    }

    /** The server's renderer: {@code writer}'s body, streamed as it is. */
    static ResponseRenderer streaming(ResponseWriter writer) {
        return (replies, sink) -> sink.respond(HttpResponseStatus.OK, writer.body(replies), replies.summary());
    }
}
