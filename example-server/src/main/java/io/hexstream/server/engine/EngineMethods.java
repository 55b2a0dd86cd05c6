package io.hexstream.server.engine;

import io.hexstream.server.blob.Origin;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.tx.TransactionIngest;
import java.util.List;

/**
 * The methods the example server serves, over one pool: every one on the Engine API port, only the {@code eth_} ones on
 * a port without JWT.
 */
public final class EngineMethods {
    private EngineMethods() {}

    /**
     * getBlobs V1 to V4 (each replying {@code -38005} unless {@code fork} serves it),
     * {@code engine_exchangeCapabilities} and {@code eth_sendRawTransaction} through {@code ingest} (the transactions
     * of the {@link Origin#AUTHENTICATED authenticated} origin); getBlobs tells {@code metrics} the hashes asked for
     * and found, and writes from {@code cache} (the hex cache, or {@code null} for none) when it holds every entry.
     */
    public static List<RpcMethod> all(
            DurableBlobPool pool,
            Fork fork,
            int maxBlobsPerRequest,
            TransactionIngest ingest,
            ServerMetrics metrics,
            HexCache cache) {
        return List.of(
                new GetBlobs(GetBlobs.Version.V1, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V2, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V3, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V4, pool, fork, maxBlobsPerRequest, metrics, cache),
                new ExchangeCapabilities(fork),
                new SendRawTransaction(ingest, Origin.AUTHENTICATED));
    }

    /**
     * The methods of a port without JWT ({@code --rpc-port}): {@code eth_sendRawTransaction} through {@code ingest},
     * its transactions of the {@link Origin#UNAUTHENTICATED unauthenticated} origin, and no {@code engine_} method.
     */
    public static List<RpcMethod> unauthenticated(TransactionIngest ingest) {
        return List.of(new SendRawTransaction(ingest, Origin.UNAUTHENTICATED));
    }
}
