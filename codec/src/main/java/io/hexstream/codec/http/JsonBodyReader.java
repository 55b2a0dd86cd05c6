package io.hexstream.codec.http;

import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponse;

/**
 * A response body read as JSON: each piece fed through a {@link JsonHexReader} into the listener a
 * {@link JsonResponseConsumer} gives for the response's head. Keeps no buffer; the chunks stay the caller's.
 */
final class JsonBodyReader implements HttpResponseConsumer {
    private static final JsonTokenListener IGNORE = new JsonTokenListener() {};

    private final JsonResponseConsumer consumer;
    private JsonHexReader reader;

    JsonBodyReader(JsonResponseConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public void head(HttpResponse head) {
        JsonTokenListener listener = consumer.head(head);
        reader = new JsonHexReader(listener == null ? IGNORE : listener);
        consumer.reading(reader);
    }

    @Override
    public void content(ByteBuf chunk) {
        reader.feed(chunk);
    }

    /** Ends the document (a fault if it is incomplete), then tells the consumer. */
    @Override
    public void complete() {
        reader.end();
        consumer.complete();
    }

    @Override
    public void failed(Throwable cause) {
        consumer.failed(cause);
    }
}
