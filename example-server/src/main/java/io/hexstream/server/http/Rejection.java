package io.hexstream.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A route's answer to a request it refuses on its head, before any body byte is read: the status and a body in the
 * route's own encoding (the route knows it, {@code http} does not). The connection closes once the answer is written,
 * the body unread.
 *
 * @param status e.g. {@code 413} or {@code 415}
 * @param contentType the body's {@code Content-Type}, e.g. {@code application/problem+json}
 * @param body the body, UTF-8
 */
public record Rejection(HttpResponseStatus status, CharSequence contentType, String body) {}
