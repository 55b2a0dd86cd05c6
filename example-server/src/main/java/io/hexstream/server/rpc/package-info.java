/**
 * JSON-RPC 2.0: {@link io.hexstream.server.rpc.RequestParser} (Jackson streaming, from the request's
 * {@code ByteBuf}, batches bounded), {@link io.hexstream.server.rpc.JsonRpcDispatcher} (method lookup,
 * order, notifications, errors, blocking methods on the ingest executor, the response cap) and
 * {@link io.hexstream.server.rpc.ResponseWriter}, which turns the replies into one
 * {@link io.hexstream.codec.json.JsonBody} of exact length. Knows nothing of HTTP or of the methods.
 */
package io.hexstream.server.rpc;
