/**
 * The one seam between the routes and the transports, knowing no HTTP/1.1, no method and no encoding: a route answers
 * each request through its {@link io.hexstream.server.exchange.ReplySink} (a status, headers, and a body of exact
 * length streamed as the transport drains, a {@link io.hexstream.codec.body.StreamedBody}, or a small one given whole;
 * the request's headers as received; the event loop; whether the connection is gone), whichever transport carries it:
 * HTTP/1.1 ({@code http}, whose handlers also run each HTTP/2 stream), WebSocket and IPC messages ({@code message}).
 * The in-order core of the transports that answer in request order,
 * {@link io.hexstream.server.exchange.InOrderExchange} (the line of {@link io.hexstream.server.exchange.Reply replies},
 * the offload of large bodies, the {@code maxPipelined} bound through the connection's
 * {@link io.hexstream.server.exchange.ReadThrottle}, the releases on disconnect), is written once here; each transport
 * says only what it writes for a reply and what follows the write.
 *
 * <p>Words: a <em>request</em> is what a client sends to be answered once (an HTTP request, a WebSocket message, an IPC
 * line); its <em>reply</em> what the route hands back for it, which the transport writes as a response or a message.
 */
package io.hexstream.server.exchange;
