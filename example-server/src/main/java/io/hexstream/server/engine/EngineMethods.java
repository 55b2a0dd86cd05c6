package io.hexstream.server.engine;

import io.hexstream.server.blob.Origin;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.pool.DurableBlobPool;
import io.hexstream.server.rpc.RpcMethod;
import io.hexstream.server.tx.TransactionIngest;
import java.util.List;
import java.util.stream.Stream;

/**
 * The method table: the methods the example server serves, over one pool. {@link #all} is the Engine API port's, every
 * method; {@link #unauthenticated} a port's without JWT ({@code --rpc-port}), the {@code eth_} ones only.
 */
public final class EngineMethods {
    private EngineMethods() {}

    /**
     * getBlobs V1 to V4 (each replying {@code -38005} unless {@code fork} serves it), {@code eth_sendRawTransaction}
     * through {@code ingest} (the transactions of the {@link Origin#AUTHENTICATED authenticated} origin), and
     * {@code engine_exchangeCapabilities}, which lists the others' {@code engine_} methods that {@code fork} serves;
     * getBlobs tells {@code metrics} the hashes asked for and found, and writes from {@code cache} (the hex cache, or
     * {@code null} for none) when it holds every entry.
     */
    public static List<RpcMethod> all(
            DurableBlobPool pool,
            Fork fork,
            int maxBlobsPerRequest,
            TransactionIngest ingest,
            ServerMetrics metrics,
            HexCache cache) {
        List<RpcMethod> methods = List.of(
                new GetBlobs(GetBlobs.Version.V1, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V2, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V3, pool, fork, maxBlobsPerRequest, metrics, cache),
                new GetBlobs(GetBlobs.Version.V4, pool, fork, maxBlobsPerRequest, metrics, cache),
                new SendRawTransaction(ingest, Origin.AUTHENTICATED));
        return Stream.concat(methods.stream(), Stream.of(new ExchangeCapabilities(methods)))
                .toList();
    }

    /**
     * The methods of a port without JWT ({@code --rpc-port}): {@code eth_sendRawTransaction} through {@code ingest},
     * its transactions of the {@link Origin#UNAUTHENTICATED unauthenticated} origin, and no {@code engine_} method.
     */
    public static List<RpcMethod> unauthenticated(TransactionIngest ingest) {
        return List.of(new SendRawTransaction(ingest, Origin.UNAUTHENTICATED));
    }
}
