package io.hexstream.server.ssz;

import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.engine.GetBlobs;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.RpcError;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Binary SSZ getBlobs (EIP-8178 draft, "Blobs"): a {@code GetBlobsRequest} body in, the answer out, with
 * the same fork rule and the same pool lookup ({@link BlobLookup}) as {@code engine_getBlobsV1..3}.
 * Checked in this order: the fork ({@code 400}: the draft names no status for it), the SSZ
 * ({@code 400} malformed, {@code 413} more than {@code --max-blobs-per-request} or 128 hashes); then
 * {@code 200} with the response container, or {@code 204} (empty) where the JSON-RPC answer would be
 * {@code null} as a whole: V2 with a hash missing, and V1 with a hash missing (its SSZ list, unlike JSON,
 * has no {@code null} entry); {@code 500} if the lookup fails unexpectedly (logged). Never blocks;
 * thread-safe. The metrics hear it as method {@link SszRoute#method()}, its outcomes as the JSON-RPC
 * codes of the same refusals ({@code -38005}, {@code -32602}, {@code -38004}, {@code -32603}).
 */
public final class SszGetBlobs {
    private static final Logger LOG = LoggerFactory.getLogger(SszGetBlobs.class);

    private final BlobLookup lookup;
    private final Fork served;
    private final int maxHashes;
    private final ServerMetrics metrics;

    /**
     * @param served the fork the server serves
     * @param maxBlobsPerRequest {@code --max-blobs-per-request}; the SSZ list's own limit, 128, applies too
     */
    public SszGetBlobs(BlobLookup lookup, Fork served, int maxBlobsPerRequest, ServerMetrics metrics) {
        this.lookup = lookup;
        this.served = served;
        this.maxHashes = Math.min(maxBlobsPerRequest, GetBlobsRequestDecoder.MAX_BLOB_HASHES_REQUEST);
        this.metrics = metrics;
    }

    /**
     * What to answer: a {@link GetBlobsResponse} (status 200), or no response and a status with a
     * one-line reason ({@code null} for the empty {@code 204}).
     *
     * @param response the {@code 200} answer (its owner is the caller), or {@code null}
     * @param exchange what the metrics and the access log hear once it is written
     */
    public record Answer(GetBlobsResponse response, HttpResponseStatus status, String reason, ResponseSummary exchange) {}

    /**
     * Answers {@code body} (the whole request body, its indices unchanged, not released) on {@code route}.
     *
     * @param httpVersion the request's HTTP version
     * @param keepAlive whether the connection stays open after the answer
     */
    public Answer answer(SszRoute route, HttpVersion httpVersion, boolean keepAlive, ByteBuf body) {
        GetBlobs.Version version = route.version();
        if (!version.servedUnder(served)) {
            return refused(route, HttpResponseStatus.BAD_REQUEST, RpcError.UNSUPPORTED_FORK, route.path()
                    + " (" + version.methodName() + ") is not served under " + served.name().toLowerCase(Locale.ROOT));
        }
        VersionedHash[] hashes;
        try {
            hashes = GetBlobsRequestDecoder.decode(body, maxHashes);
        } catch (SszException e) {
            return refused(route, e.status(), e.status() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                    ? RpcError.TOO_LARGE_REQUEST : RpcError.INVALID_PARAMS, e.getMessage());
        }
        try {
            BlobLookup.Found found = lookup.lookUp(version, hashes, route.method());
            ResponseSummary exchange = new ResponseSummary(route.method(), hashes.length, found.available(), null);
            Answer answer = version != GetBlobs.Version.V3 && !found.all()
                    ? new Answer(null, HttpResponseStatus.NO_CONTENT, null, exchange)
                    : new Answer(new GetBlobsResponse(httpVersion, keepAlive, version, found.entries()),
                            HttpResponseStatus.OK, null, exchange);
            metrics.replied(route.method(), null);
            return answer;
        } catch (RuntimeException e) {
            LOG.error("{} failed", route.method(), e);
            return refused(route, HttpResponseStatus.INTERNAL_SERVER_ERROR, RpcError.INTERNAL_ERROR, "internal error");
        }
    }

    private Answer refused(SszRoute route, HttpResponseStatus status, RpcError outcome, String reason) {
        metrics.replied(route.method(), outcome);
        return new Answer(null, status, reason, new ResponseSummary(route.method(), 0, 0, outcome));
    }
}
