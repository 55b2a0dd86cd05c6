package io.hexstream.server.ssz;

import io.hexstream.server.blob.VersionedHash;
import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.engine.GetBlobs;
import io.hexstream.server.http.Responder;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.RpcError;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The route of one binary SSZ getBlobs, {@code POST} on its {@link SszRoute}'s path (EIP-8178 draft,
 * "Blobs"): a {@code GetBlobsRequest} body in, the response out, with the same fork rule and the same pool
 * lookup ({@link BlobLookup}) as {@code engine_getBlobsV1..3}. Needs a JWT; a {@code Content-Length} over
 * {@link GetBlobsRequestDecoder#MAX_BODY_BYTES} is {@code 413} on the head, with a reason, and the
 * connection closes. Checked in this order: the fork ({@code 400}: the draft names no status for it), the SSZ
 * ({@code 400} malformed, {@code 413} more than {@code --max-blobs-per-request} or 128 hashes); then
 * {@code 200} with the response container, or {@code 204} (empty) where the JSON-RPC result would be
 * {@code null} as a whole: V2 with a hash missing, and V1 with a hash missing (its SSZ list, unlike JSON,
 * has no {@code null} entry); {@code 500} if the lookup fails unexpectedly (logged). Never blocks;
 * thread-safe. The metrics hear it as method {@link SszRoute#method()}, its outcomes as the JSON-RPC
 * codes of the same refusals ({@code -38005}, {@code -32602}, {@code -38004}, {@code -32603}).
 */
public final class SszGetBlobs implements Route {
    private static final Logger LOG = LoggerFactory.getLogger(SszGetBlobs.class);

    private final SszRoute route;
    private final BlobLookup lookup;
    private final Fork served;
    private final int maxHashes;
    private final ServerMetrics metrics;

    /**
     * @param route the path and the getBlobs version served
     * @param served the fork the server serves
     * @param maxBlobsPerRequest {@code --max-blobs-per-request}; the SSZ list's own limit, 128, applies too
     */
    public SszGetBlobs(SszRoute route, BlobLookup lookup, Fork served, int maxBlobsPerRequest, ServerMetrics metrics) {
        this.route = route;
        this.lookup = lookup;
        this.served = served;
        this.maxHashes = Math.min(maxBlobsPerRequest, GetBlobsRequestDecoder.MAX_BLOB_HASHES_REQUEST);
        this.metrics = metrics;
    }

    @Override
    public boolean needsJwt() {
        return true;
    }

    @Override
    public int maxBodyBytes() {
        return GetBlobsRequestDecoder.MAX_BODY_BYTES;
    }

    @Override
    public String tooLarge(long contentLength) {
        return "GetBlobsRequest of " + contentLength + " bytes, at most " + GetBlobsRequestDecoder.MAX_BODY_BYTES
                + " (128 versioned hashes)";
    }

    /** Decodes {@code body} (the whole request body, its indices unchanged, not released) and responds. */
    @Override
    public void handle(ByteBuf body, Responder responder) {
        GetBlobs.Version version = route.version();
        if (!version.servedUnder(served)) {
            refuse(responder, HttpResponseStatus.BAD_REQUEST, RpcError.UNSUPPORTED_FORK, route.path()
                    + " (" + version.methodName() + ") is not served under " + served.name().toLowerCase(Locale.ROOT));
            return;
        }
        VersionedHash[] hashes;
        try {
            hashes = GetBlobsRequestDecoder.decode(body, maxHashes);
        } catch (SszException e) {
            refuse(responder, e.status(), e.status() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                    ? RpcError.TOO_LARGE_REQUEST : RpcError.INVALID_PARAMS, e.getMessage());
            return;
        }
        BlobLookup.Found found;
        GetBlobsResponse response; // null: 204
        try {
            found = lookup.lookUp(version, hashes, route.method());
            response = version != GetBlobs.Version.V3 && !found.all() ? null
                    : new GetBlobsResponse(responder.version(), responder.keepAlive(), version, found.entries());
        } catch (RuntimeException e) {
            LOG.error("{} failed", route.method(), e);
            refuse(responder, HttpResponseStatus.INTERNAL_SERVER_ERROR, RpcError.INTERNAL_ERROR, "internal error");
            return;
        }
        ResponseSummary summary = new ResponseSummary(route.method(), hashes.length, found.available(), null);
        metrics.replied(route.method(), null);
        if (response == null) {
            responder.respondEmpty(HttpResponseStatus.NO_CONTENT, summary);
        } else {
            responder.respond(response, summary);
        }
    }

    private void refuse(Responder responder, HttpResponseStatus status, RpcError outcome, String reason) {
        metrics.replied(route.method(), outcome);
        responder.respondText(status, reason, new ResponseSummary(route.method(), 0, 0, outcome));
    }
}
