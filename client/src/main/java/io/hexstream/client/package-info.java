/**
 * The reading side of the Engine API's getBlobs methods ({@code engine_getBlobsV1} to {@code V4}), for a consensus
 * client: {@link io.hexstream.client.GetBlobsResponses} reads a JSON-RPC response from a blocking
 * {@link java.io.InputStream} as it arrives, decoding each blob, cell and proof straight into a {@code byte[]} of its
 * size with the codec's hex kernel and handing each entry over as soon as it is read. Its faults are
 * {@link java.io.IOException}s: {@link io.hexstream.client.RpcErrorException} for a JSON-RPC error,
 * {@link io.hexstream.client.GetBlobsResponseException} for anything else that is not the method's response. The
 * JSON-RPC envelope ({@code JsonRpcResponseListener}) is read apart from the entries of the result
 * ({@code BlobsResultListener}), both listeners of the codec's {@link io.hexstream.codec.json.JsonHexReader}. Depends
 * on the codec's core and Netty's buffers, nothing else.
 */
package io.hexstream.client;
