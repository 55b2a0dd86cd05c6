/**
 * The Engine API methods, one class per family: {@link io.hexstream.server.engine.GetBlobs} (V1 to
 * V4 by {@link io.hexstream.server.engine.GetBlobs.Version}),
 * {@link io.hexstream.server.engine.ExchangeCapabilities} and
 * {@link io.hexstream.server.engine.SendRawTransaction}, with the {@link io.hexstream.server.engine.Fork}
 * that decides which getBlobs answer. Each reads typed params and returns an
 * {@link io.hexstream.server.rpc.RpcResult}; the dispatcher does the rest.
 */
package io.hexstream.server.engine;
