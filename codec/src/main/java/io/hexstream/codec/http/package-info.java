/**
 * A {@link io.hexstream.codec.json.JsonBody} as an HTTP response, the last step before the socket:
 * {@link io.hexstream.codec.http.JsonResponse} (status, keep-alive, body),
 * {@link io.hexstream.codec.http.JsonResponseEncoder} (head with the exact {@code Content-Length}, body
 * streamed as the socket drains) and {@link io.hexstream.codec.http.HttpBodyInput} (any chunked body as
 * bare content buffers ending in a {@code LastHttpContent}).
 */
package io.hexstream.codec.http;
