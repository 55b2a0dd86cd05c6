package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;

/**
 * A request refused on its head by {@link RequestHeadCheck}, passed on in its place (past the
 * aggregator, which never sees its body) so that {@link EngineApiHandler} answers it in turn.
 *
 * @param version the request's HTTP version
 * @param status 400, 401, 404, 405 or 413
 * @param reason the one-line body of the answer, or {@code null} for an empty one
 * @param allow the {@code Allow} header of a 405, else {@code null}
 * @param keepAlive whether the connection stays open after the answer (the body is then dropped unread)
 */
record RefusedRequest(HttpVersion version, HttpResponseStatus status, String reason, String allow,
        boolean keepAlive) {}
