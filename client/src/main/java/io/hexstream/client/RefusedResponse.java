package io.hexstream.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A response with a status that is not an answer (neither {@code 200} nor, for the REST routes, {@code 204}), read into
 * the one line of the {@link BadResponseException} that fails its call: {@code HTTP}, the status code, then the
 * server's reason from the first {@value #MAX_BODY} bytes of its body. From an {@code application/problem+json} body
 * (RFC 7807) its {@code title} (else the last segment of its {@code type}) and {@code detail}: {@code HTTP 413
 * request-too-large: 129 versioned hashes, at most 128}; otherwise the reason phrase, then a {@code text/*} body's text
 * (a JWT refusal's reason): {@code HTTP 401 Unauthorized: wrong signature: …}. Line breaks become spaces; the bytes are
 * read as ISO-8859-1, one character each, so that a printer escaping control and non-ASCII characters shows each byte.
 */
final class RefusedResponse {
    /** The most bytes of a refusal's body kept; the rest is read and dropped. */
    static final int MAX_BODY = 4096;

    private static final JsonFactory JSON = new JsonFactory();

    private final HttpResponseStatus status;
    private final String contentType;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    RefusedResponse(HttpResponse head) {
        this.status = head.status();
        this.contentType = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
    }

    /** A piece of the body: its bytes up to {@link #MAX_BODY} in all are kept; {@code chunk} stays the caller's. */
    void add(ByteBuf chunk) {
        int n = Math.min(chunk.readableBytes(), MAX_BODY - body.size());
        byte[] bytes = new byte[n];
        chunk.readBytes(bytes);
        body.writeBytes(bytes);
    }

    /** The line, once the body has ended. */
    String line() {
        return line("");
    }

    /**
     * The line with {@code context} after the status and its title or reason phrase, before the server's detail:
     * {@code HTTP 401 Unauthorized to the WebSocket upgrade: wrong signature: …}.
     */
    String line(String context) {
        StringBuilder line = new StringBuilder("HTTP ").append(status.code());
        String detail;
        try (JsonParser parser = JSON.createParser(body.toByteArray())) {
            detail = appendProblem(parser, line);
        } catch (IOException | RuntimeException e) {
            line.setLength(0); // not a problem document
            line.append("HTTP ").append(status.code()).append(' ').append(status.reasonPhrase());
            String text = body.toString(StandardCharsets.ISO_8859_1).strip();
            detail = isText() && !text.isEmpty() ? text : null;
        }
        line.append(context);
        if (detail != null) {
            line.append(": ").append(detail);
        }
        return line.toString().replaceAll("\\R", " ");
    }

    private boolean isText() {
        return contentType != null && contentType.regionMatches(true, 0, "text/", 0, 5);
    }

    /**
     * Appends the problem document's {@code title} (else the last segment of its {@code type}) to {@code line}, and
     * returns its {@code detail} ({@code null}: none): its top-level string members, the last of a name if repeated.
     *
     * @throws IOException if the body is not a JSON object, or has neither a title, a type nor a detail
     */
    private static String appendProblem(JsonParser body, StringBuilder line) throws IOException {
        if (body.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("not a JSON object");
        }
        boolean hasTitle = false;
        String title = null;
        String type = null;
        String detail = null;
        while (body.nextToken() == JsonToken.FIELD_NAME) {
            String name = body.currentName();
            JsonToken value = body.nextToken();
            String text = value == JsonToken.VALUE_STRING ? body.getText() : null;
            switch (name) {
                case "title" -> {
                    hasTitle = true;
                    title = text;
                }
                case "type" -> type = text;
                case "detail" -> detail = text;
                default -> {}
            }
            body.skipChildren(); // an object or array value; a no-op on a scalar
        }
        if (title == null && type == null && detail == null) {
            throw new IOException("not a problem document");
        }
        if (title != null) {
            line.append(' ').append(title);
        } else if (type != null) {
            line.append(' ').append(hasTitle ? type : type.substring(type.lastIndexOf('/') + 1));
        }
        return detail;
    }
}
