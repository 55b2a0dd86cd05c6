/**
 * JSON-RPC over a connection of messages rather than HTTP requests (a WebSocket after its upgrade, {@code ws}; an IPC
 * socket, {@code ipc}): {@link io.hexstream.server.message.MessageExchange} hands each whole incoming message, as a
 * body, to the JSON-RPC route (the one {@code POST /} serves) and streams the replies back in message order, each
 * framed by the transport's {@link io.hexstream.server.message.ReplyFraming} as its chunks come, with the bounds of
 * HTTP: replies pending, idle time, the stalled-write timeout of the pipeline. The line is the in-order core HTTP/1.1
 * uses too ({@link io.hexstream.server.exchange.InOrderExchange}).
 *
 * <p>Words: a <em>message</em> is what a client sends in one piece (a WebSocket text message, a line); its
 * <em>reply</em> the one message written back (the JSON-RPC response document: one reply object or a batch's array),
 * none for notifications only.
 */
package io.hexstream.server.message;
