/**
 * The HTTP front of the server, knowing no method and no encoding: {@link io.hexstream.server.http.EngineServer} (one
 * event-loop group, its three ports at most, each with its {@link io.hexstream.server.http.ConnectionLimit}),
 * {@link io.hexstream.server.http.EngineApiInitializer} (the one pipeline), the
 * {@link io.hexstream.server.http.RouteTable} of each port ((method, path) → {@link io.hexstream.server.http.Route},
 * looked up once on the request's head; 404 and 405 from it), the head check (JWT and body limit as the route declares,
 * before any body byte), the idle and stalled-write timeouts, and {@code EngineApiHandler} (the HTTP/1.1 transport on
 * the in-order core of {@code exchange}: each request to its route, responses in request order, reads paused while too
 * many are unwritten), and {@code ProtocolSwitch}, which hands a connection over to another protocol when a route
 * answers with {@link io.hexstream.server.http.SwitchingProtocols} (the WebSocket upgrade, {@code ws}), and h2c (HTTP/2
 * with prior knowledge, told by {@link io.hexstream.server.http.ProtocolDetector}, or by HTTP/1.1's {@code Upgrade:
 * h2c}): each stream a channel of its own through the same handlers, one request a stream ({@code Http2Streams}). The
 * routes live with what they serve ({@code rpc}, {@code ssz}, {@code ws}; the metrics port's with the wiring) and are
 * registered by the wiring.
 *
 * <p>Words: a <em>request</em> is one HTTP request; its <em>response</em> the one HTTP response written for it, through
 * from what its route handed to its {@link io.hexstream.server.exchange.ReplySink} (an
 * {@link io.hexstream.server.http.Http1Responder}, for the answers only HTTP/1.1 has: the switch of protocols). (A
 * JSON-RPC reply is the result or error object of one call inside a response: {@code rpc}.)
 */
package io.hexstream.server.http;
