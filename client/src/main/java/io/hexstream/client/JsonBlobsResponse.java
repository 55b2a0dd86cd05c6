package io.hexstream.client;

import io.hexstream.codec.http.HttpResponseConsumer;
import io.hexstream.codec.json.JsonHexReader;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * The HTTP response to one JSON-RPC getBlobs call: a {@code 200}'s body fed, as it arrives, through a
 * {@link JsonHexReader} into its {@link JsonBlobsReader}; any other status fails the call with a
 * {@link BadResponseException} of one line with the server's reason from the body ({@link RefusedResponse}):
 * {@code HTTP 401 Unauthorized: wrong signature: …}.
 *
 * <p>Ownership: as {@link JsonBlobsReader}'s; the chunks stay the caller's. Called on the connection's event loop only.
 */
final class JsonBlobsResponse implements HttpResponseConsumer {
    private final JsonBlobsReader reader;
    private JsonHexReader json;
    private RefusedResponse refused;

    JsonBlobsResponse(JsonBlobsReader reader) {
        this.reader = reader;
    }

    @Override
    public void head(HttpResponse head) {
        if (head.status().code() == HttpResponseStatus.OK.code()) {
            json = new JsonHexReader(reader.head(head));
            reader.reading(json);
        } else {
            reader.begin();
            refused = new RefusedResponse(head);
        }
    }

    @Override
    public void content(ByteBuf chunk) {
        if (refused != null) {
            refused.add(chunk);
        } else {
            json.feed(chunk);
        }
    }

    @Override
    public void complete() {
        if (refused != null) {
            throw new BadResponseException(refused.line());
        }
        json.end();
        reader.complete();
    }

    @Override
    public void failed(Throwable cause) {
        reader.failed(cause);
    }
}
