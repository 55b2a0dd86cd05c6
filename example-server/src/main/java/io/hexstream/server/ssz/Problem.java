package io.hexstream.server.ssz;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Rejection;
import io.hexstream.server.metrics.ResponseSummary;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/**
 * An error answer of the REST routes (execution-apis #793, {@code refactor.md}, "Error model"): the status and an
 * {@code application/problem+json} body of RFC 7807's {@code type} (a relative URI under {@code /engine-api/errors/})
 * and, unless the type says all, {@code detail}: {@code {"type":"/engine-api/errors/ssz-decode-error"}}.
 *
 * @param type the last segment of the type, e.g. {@code request-too-large}
 * @param detail one line for a person, or {@code null} for none
 */
public record Problem(HttpResponseStatus status, String type, String detail) {
    /** {@code Content-Type} of the body. */
    public static final String CONTENT_TYPE = "application/problem+json";
    /** The SSZ of the body did not decode: {@code 400}, canned, no detail. */
    public static final Problem SSZ_DECODE_ERROR =
            new Problem(HttpResponseStatus.BAD_REQUEST, "ssz-decode-error", null);

    /** {@code 404 method-not-found}: the URL is no endpoint served (a blob revision the fork does not serve). */
    public static Problem methodNotFound(String detail) {
        return new Problem(HttpResponseStatus.NOT_FOUND, "method-not-found", detail);
    }

    /** {@code 413 request-too-large}: more than the advertised {@code limits.*}. */
    public static Problem requestTooLarge(String detail) {
        return new Problem(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "request-too-large", detail);
    }

    /** {@code 415 unsupported-media-type}: a {@code Content-Type} other than the endpoint's. */
    public static Problem unsupportedMediaType(String detail) {
        return new Problem(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", detail);
    }

    /** {@code 500 internal}. */
    public static Problem internal(String detail) {
        return new Problem(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal", detail);
    }

    /** The body, e.g. {@code {"type":"/engine-api/errors/request-too-large","detail":"…"}}. */
    public String json() {
        StringBuilder json = new StringBuilder("{\"type\":\"/engine-api/errors/")
                .append(type)
                .append('"');
        if (detail != null) {
            json.append(",\"detail\":\"")
                    .append(JsonStringEncoder.getInstance().quoteAsString(detail))
                    .append('"');
        }
        return json.append('}').toString();
    }

    /** The answer on the request's head, before its body is read. */
    public Rejection rejection() {
        return new Rejection(status, CONTENT_TYPE, json());
    }

    /** The whole answer, handed to {@code sink}. */
    public void answer(ReplySink sink, ResponseSummary summary) {
        sink.respond(status, CONTENT_TYPE, Unpooled.copiedBuffer(json(), StandardCharsets.UTF_8), summary);
    }
}
