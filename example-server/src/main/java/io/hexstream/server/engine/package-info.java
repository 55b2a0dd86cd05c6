/**
 * The Engine API methods, one class per family: {@link io.hexstream.server.engine.GetBlobs} (V1 to V4 by
 * {@link io.hexstream.server.engine.GetBlobs.Version}), {@link io.hexstream.server.engine.ExchangeCapabilities} and
 * {@link io.hexstream.server.engine.SendRawTransaction}, with the {@link io.hexstream.server.engine.Fork} that decides
 * which getBlobs are served (each a {@link io.hexstream.server.engine.ForkScopedMethod}), and
 * {@link io.hexstream.server.engine.EngineMethods}, the method table, from which {@code engine_exchangeCapabilities}
 * lists what the fork serves. Each reads typed params and returns its own {@link io.hexstream.server.rpc.RpcResult},
 * which writes itself; JSON-RPC does the rest. The getBlobs results are
 * {@link io.hexstream.server.engine.BlobsResult}s, arrays of one {@link io.hexstream.server.engine.BlobShape}
 * ({@link io.hexstream.server.engine.BlobAndProofV1}, {@link io.hexstream.server.engine.BlobAndProofV2},
 * {@link io.hexstream.server.engine.BlobCellsAndProofsV1}), written from the hex cache when it holds every entry
 * ({@link io.hexstream.server.engine.ElementRenderer} renders what the cache holds, with the shapes themselves); each
 * tallies the hashes asked for and the blobs returned. Request, reply, result and response are the words of
 * {@code rpc}'s package documentation.
 */
package io.hexstream.server.engine;
