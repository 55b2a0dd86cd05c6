/**
 * A response of exact length as HTTP, the last step before the socket: {@link io.hexstream.codec.http.StreamedResponse}
 * (version, status, keep-alive, and a {@link io.hexstream.codec.body.StreamedBody} such as a
 * {@link io.hexstream.codec.json.JsonBody}) and {@link io.hexstream.codec.http.StreamedResponseEncoder} (the head with
 * the exact {@code Content-Length}, the body streamed as the socket drains). On the client's side,
 * {@link io.hexstream.codec.http.HttpResponseReader} sends each {@link io.hexstream.codec.http.HttpExchange} and hands
 * its response's head and body pieces, as they arrive, to the exchange's
 * {@link io.hexstream.codec.http.HttpResponseConsumer}; {@link io.hexstream.codec.http.JsonResponseReader} is one that
 * also sends each {@link io.hexstream.codec.http.JsonExchange} and reads its response's body through a
 * {@link io.hexstream.codec.json.JsonHexReader}, for the exchange's
 * {@link io.hexstream.codec.http.JsonResponseConsumer}. Both keep their exchanges with
 * {@link io.hexstream.codec.http.PipelinedReader}, the bookkeeping of any client handler whose replies answer its
 * requests in order (the readers waiting, their failure, paced socket reads).
 */
package io.hexstream.codec.http;
