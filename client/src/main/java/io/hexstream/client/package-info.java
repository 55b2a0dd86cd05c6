/**
 * The reading side of the Engine API's getBlobs methods ({@code engine_getBlobsV1} to {@code V4}), for a consensus
 * client, in two shapes.
 *
 * <p>Blocking: {@link io.hexstream.client.GetBlobsResponses} reads a JSON-RPC response from an
 * {@link java.io.InputStream} as it arrives, decoding each blob, cell and proof straight into a {@code byte[]} of its
 * size with the codec's hex kernel and handing each entry over as soon as it is read. Its faults are
 * {@link java.io.IOException}s: {@link io.hexstream.client.RpcErrorException} for a JSON-RPC error,
 * {@link io.hexstream.client.GetBlobsResponseException} for anything else that is not the method's response. The
 * JSON-RPC envelope ({@code JsonRpcResponseListener}) is read apart from the entries of the result
 * ({@code BlobsResultListener}), both listeners of the codec's {@link io.hexstream.codec.json.JsonHexReader}, and both
 * shared with the Netty readers below: the entries' values go to {@code ArrayEntries} here ({@code byte[]}s), to
 * {@code PooledEntries} there (pooled buffers, through the {@code EntryHandover} the SSZ reader shares), the faults of
 * either are the same {@link io.hexstream.client.GetBlobsResponseException}.
 *
 * <p>On Netty: a {@link io.hexstream.client.BlobsClient} hands each result entry to a
 * {@link io.hexstream.client.BlobsListener} as soon as its last byte is decoded, into pooled direct buffers. It is one
 * of: {@link io.hexstream.client.GetBlobsClient}, one connection (TCP or a Unix domain socket), a fresh JWT per request
 * ({@link io.hexstream.client.JwtSigner}), HTTP/1.1 with calls pipelined or h2c with prior knowledge with each call a
 * stream of its own ({@code Http2StreamsHandler}, a reset told by {@code StreamResetHandler}; the stream's frames
 * turned into the HTTP objects the same readers take), each response read through the codec's
 * {@link io.hexstream.codec.http.HttpResponseReader}: by JSON-RPC (a {@code JsonBlobsResponse} and its
 * {@code JsonBlobsReader}) or by the REST routes of execution-apis #793 ({@code SszGetBlobs}; an
 * {@code SszBlobsResponse} and its {@code SszBlobsReader}), a refusal's status and reason read by a
 * {@code RefusedResponse}; {@link io.hexstream.client.MessageClient}, JSON-RPC over WebSocket (the JWT on the upgrade;
 * {@code WebSocketUpgradeHandler}, frames read as they arrive by {@code WebSocketFrameReader}, pings answered by
 * {@code WebSocketControlHandler}) or IPC over the JDK's Unix domain sockets ({@code MessageReplyReader}; a reply
 * bounded by its call, {@code JsonReplySize}).
 *
 * <p>The value types a server shares: {@link io.hexstream.client.VersionedHash},
 * {@link io.hexstream.client.CellIndices} and {@link io.hexstream.client.BlobSizes}, the one place the EIP-4844 and
 * EIP-7594 sizes are written down. Depends on the codec, Netty (buffers, channels, HTTP/1.1, HTTP/2) and jackson-core's
 * streaming parser (problem documents), nothing else.
 */
package io.hexstream.client;
