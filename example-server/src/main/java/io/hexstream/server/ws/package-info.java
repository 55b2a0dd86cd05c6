/**
 * The Engine API over WebSocket (RFC 6455) on the Engine API's port: {@link io.hexstream.server.ws.WebSocketRoute}, the
 * upgrade ({@code GET /} with {@code Upgrade: websocket}, its JWT checked on that request only, as
 * {@code authentication.md} says), after which the connection carries JSON-RPC in text messages: each whole message
 * (frames joined up to {@code --max-request-bytes}) answered in order by the JSON-RPC route through a
 * {@link io.hexstream.server.message.MessageExchange}, each reply one text message streamed as a text frame and
 * continuation frames, one per chunk of the reply ({@link io.hexstream.server.ws.ReplyFrames}).
 * {@link io.hexstream.server.ws.WebSocketFrames} answers pings and closes. No extension is offered: no
 * {@code permessage-deflate} (the engine port never compresses).
 */
package io.hexstream.server.ws;
