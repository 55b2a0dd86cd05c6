/**
 * JSON-RPC 2.0: {@link io.hexstream.server.rpc.RequestParser} (Jackson streaming, from the request's
 * {@code ByteBuf}, batches bounded), {@link io.hexstream.server.rpc.JsonRpcDispatcher} (method lookup,
 * order, notifications, errors, blocking methods on the ingest executor, the response cap) and
 * {@link io.hexstream.server.rpc.ResponseWriter}, which turns the replies into one
 * {@link io.hexstream.codec.json.JsonBody} of exact length; {@link io.hexstream.server.rpc.JsonRpcRoute}
 * puts them on the HTTP route table at {@code POST /}, and {@link io.hexstream.server.rpc.ResponseRenderer}
 * is the seam where the response is made. A request is one JSON-RPC call, a reply its result or error
 * object; the HTTP response carries the replies to one HTTP request. Knows nothing of the methods.
 */
package io.hexstream.server.rpc;
