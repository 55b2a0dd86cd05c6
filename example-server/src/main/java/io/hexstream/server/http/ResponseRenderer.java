package io.hexstream.server.http;

import io.hexstream.server.rpc.RpcReply;
import io.netty.handler.codec.http.HttpRequest;
import java.util.List;

/**
 * Turns the replies to one HTTP request into the HTTP response message the pipeline writes. The
 * server's own is {@link StreamingRenderer}; the benchmarks plug in the String-based peers here.
 */
@FunctionalInterface
public interface ResponseRenderer {

    /**
     * The response message (reference-counted; its writer hands it to the channel) for
     * {@code replies}, a JSON array when {@code batch}. Called on the channel's event loop.
     */
    Object render(HttpRequest request, List<RpcReply> replies, boolean batch);
}
