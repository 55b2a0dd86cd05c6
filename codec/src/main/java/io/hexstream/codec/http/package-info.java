/**
 * A {@link io.hexstream.codec.json.JsonBody} as an HTTP response, the last step before the socket:
 * {@link io.hexstream.codec.http.JsonResponse} (status, keep-alive, body),
 * {@link io.hexstream.codec.http.JsonResponseEncoder} (head with the exact {@code Content-Length}, body
 * streamed as the socket drains) and {@link io.hexstream.codec.http.HttpBodyInput} (any chunked body as
 * bare content buffers ending in a {@code LastHttpContent}). On the client's side,
 * {@link io.hexstream.codec.http.JsonResponseReader} sends each {@link io.hexstream.codec.http.JsonExchange}
 * and reads its response's body as it arrives through a {@link io.hexstream.codec.json.JsonHexReader},
 * for the exchange's {@link io.hexstream.codec.http.JsonResponseConsumer}.
 */
package io.hexstream.codec.http;
