/**
 * A client of any Engine API endpoint's getBlobs methods ({@code engine_getBlobsV1} to {@code V4}), each reply read as
 * it arrives and each result entry handed to a {@link io.hexstream.server.client.BlobsListener} as soon as its last
 * byte is decoded, into pooled direct buffers. A {@link io.hexstream.server.client.BlobsClient} is one of:
 * {@link io.hexstream.server.client.GetBlobsClient}, one HTTP/1.1 connection, a fresh JWT per request, calls pipelined,
 * by JSON-RPC (read through the codec's {@link io.hexstream.codec.http.JsonResponseReader}) or by the REST routes of
 * execution-apis #793 ({@link io.hexstream.server.client.SszGetBlobs}; each response read through the codec's
 * {@link io.hexstream.codec.http.HttpResponseReader} by a {@link io.hexstream.server.client.SszBlobsResponse} and its
 * {@link io.hexstream.server.client.SszBlobsReader}); {@link io.hexstream.server.client.MessageClient}, JSON-RPC over
 * WebSocket (the JWT on the upgrade; {@link io.hexstream.server.client.WebSocketUpgradeHandler}, frames read as they
 * arrive by {@link io.hexstream.server.client.WebSocketFrameReader}, pings answered by
 * {@link io.hexstream.server.client.WebSocketControlHandler}) or IPC
 * ({@link io.hexstream.server.client.MessageReplyReader}; a reply bounded by its call,
 * {@link io.hexstream.server.client.JsonReplySize}). It knows the Engine API's shapes and the JSON, SSZ, HTTP and
 * WebSocket specs, not any server's bytes; it uses nothing of the server (pool, cache, engine), only the value types of
 * {@code blob} and the token of {@code auth}. The transport-neutral parts (the call, the listener, the entries, the
 * outcome) are apart from the JSON ones ({@link io.hexstream.server.client.JsonGetBlobs},
 * {@link io.hexstream.server.client.JsonBlobsReader}).
 */
package io.hexstream.server.client;
