/**
 * A body of exact length streamed in chunks, whichever transport carries it:
 * {@link io.hexstream.codec.body.StreamedBody} (its media type, its exact length known before its first byte, and its
 * bytes as a {@link io.netty.handler.stream.ChunkedInput} of buffers made as the socket drains). An HTTP/1.1 response's
 * content ({@code codec.http}), a WebSocket or IPC message, an HTTP/2 stream's DATA frames: the bytes are the same.
 * {@link io.hexstream.codec.json.JsonBody} is one. Depends on Netty's buffers and {@code ChunkedInput} only.
 */
package io.hexstream.codec.body;
