/**
 * JSON-RPC 2.0, and nothing of the methods it serves: {@link io.hexstream.server.rpc.RequestParser} (Jackson streaming,
 * from the HTTP request's {@code ByteBuf}, batches bounded), {@link io.hexstream.server.rpc.JsonRpcDispatcher} (method
 * lookup, order, notifications, errors, blocking methods on the ingest executor, the response cap) and
 * {@link io.hexstream.server.rpc.ResponseWriter}, which joins the replies into one
 * {@link io.hexstream.codec.json.JsonBody} of exact length. A method ({@link io.hexstream.server.rpc.RpcMethod})
 * returns an {@link io.hexstream.server.rpc.RpcResult} that writes itself; its reply is built once, when it returns, so
 * its exact length is known before any byte is sent. {@link io.hexstream.server.rpc.JsonRpcRoute} puts JSON-RPC on the
 * HTTP route table at {@code POST /}, and {@link io.hexstream.server.rpc.ResponseRenderer} is the seam where the HTTP
 * response is made from the replies.
 *
 * <p>Words, used in this sense only here, in {@code engine} and in {@code metrics}:
 *
 * <ul>
 *   <li><b>request</b>: what a client sends: one JSON-RPC Request object (a call, or a notification when it has no id);
 *       an HTTP request carries one, or a batch of them;
 *   <li><b>reply</b>: the JSON-RPC Response object to one request that is not a notification
 *       ({@link io.hexstream.server.rpc.RpcReply}), holding either a <b>result</b>
 *       ({@link io.hexstream.server.rpc.RpcResult}) or an error;
 *   <li><b>response</b>: the HTTP response, and the JSON document it carries: one reply, or a batch's replies in an
 *       array (JSON-RPC 2.0 calls both objects "Response"; here only the HTTP one is).
 * </ul>
 */
package io.hexstream.server.rpc;
