package io.hexstream.codec.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Reads the response to one request sent through an {@link HttpResponseReader}: its head, then its body piece by piece
 * as each {@code HttpContent} arrives. Called on the channel's event loop, so it must not block: hand work that takes
 * long (hashing, KZG, disk) to an executor. Each exchange ends with {@link #complete()} or {@link #failed(Throwable)};
 * both are called only when {@link #complete()} itself throws.
 */
public interface HttpResponseConsumer {

    /** The response's head arrived (any status but 1xx: the consumer decides what a status means). */
    void head(HttpResponse head);

    /** A piece of the body, possibly empty; it stays the caller's, released after this returns. */
    void content(ByteBuf chunk);

    /** The body ended. */
    void complete();

    /**
     * The exchange failed: a method of this consumer threw (the rest of the body is then dropped), the response could
     * not be decoded as HTTP, or the connection closed or failed before the response ended.
     */
    void failed(Throwable cause);
}
