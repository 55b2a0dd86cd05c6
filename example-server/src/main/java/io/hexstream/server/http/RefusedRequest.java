package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A request refused on its head by {@link RequestHeadCheck}, passed on in its place (past the aggregator, which never
 * sees its body) so that {@link EngineApiHandler} answers it in turn, with {@code Connection: close}; the connection
 * then ends ({@link LingeringClose}).
 *
 * @param version the request's HTTP version
 * @param status 400, 401, 404, 405, or what a route's {@link Rejection} says
 * @param reason the body of the answer: one line of plain text unless {@code contentType} says otherwise; {@code null}
 *     for an empty one
 * @param contentType the body's type if not plain text (a route's {@link Rejection}), else {@code null}
 * @param allow the {@code Allow} header of a 405, else {@code null}
 */
record RefusedRequest(
        HttpVersion version, HttpResponseStatus status, String reason, CharSequence contentType, String allow) {
    /** A refusal of {@code http}'s own, its reason plain text. */
    RefusedRequest(HttpVersion version, HttpResponseStatus status, String reason, String allow) {
        this(version, status, reason, null, allow);
    }

    /** A route's {@link Rejection}. */
    RefusedRequest(HttpVersion version, Rejection rejection) {
        this(version, rejection.status(), rejection.body(), rejection.contentType(), null);
    }
}
