package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.netty.handler.codec.http.HttpResponse;

/**
 * Reads the response to one request sent through a {@link JsonResponseReader}. Called on the channel's event loop, so
 * it must not block: hand work that takes long (hashing, KZG, disk) to an executor. Each exchange ends with exactly one
 * of {@link #complete()} and {@link #failed(Throwable)}.
 */
public interface JsonResponseConsumer {

    /**
     * The response's head arrived (any status: the consumer decides what a status means); returns the listener that
     * reads its body, a JSON document, as it arrives.
     */
    JsonTokenListener head(HttpResponse head);

    /**
     * The reader that feeds the listener {@link #head} returned, made just after it: a consumer whose listener refuses
     * a token may name where in the body, by the reader's {@link JsonHexReader#path()} and
     * {@link JsonHexReader#tokenOffset()} when {@link #failed(Throwable)} is told. Does nothing by default.
     */
    default void reading(JsonHexReader reader) {}

    /** The body ended and was one complete JSON document; the listener has seen all of it. */
    void complete();

    /**
     * The exchange failed: the body is not the JSON the listener expects ({@code JsonDecodeException}), the listener
     * threw, the response could not be decoded as HTTP, or the connection closed or failed before the response ended.
     * Destinations the listener handed to the reader are the consumer's to release.
     */
    void failed(Throwable cause);
}
