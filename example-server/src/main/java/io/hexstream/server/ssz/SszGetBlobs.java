package io.hexstream.server.ssz;

import io.hexstream.client.BlobSizes;
import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.engine.GetBlobs;
import io.hexstream.server.exchange.ReplySink;
import io.hexstream.server.http.Rejection;
import io.hexstream.server.http.Route;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.metrics.ServerMetrics;
import io.hexstream.server.rpc.RpcError;
import io.hexstream.server.text.PeerText;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One blob route, {@code POST /engine/v1/blobs/vN} (execution-apis #793, {@code refactor.md}, "Blob pool", "Error
 * model", "Transport &amp; framing"; {@code refactor-ssz.md}, "{@code POST /blobs/vN}"): a {@link BlobsRequest} in, a
 * {@link BlobsResponse} out, with the JSON-RPC method's pool lookup ({@link BlobLookup}) and fork table
 * ({@link GetBlobs.Version#servedUnder}). On the head: a JWT ({@code 401} as for JSON-RPC), a {@code Content-Length} of
 * at most the largest request of {@code min(--max-blobs-per-request, 128)} hashes ({@code 413 request-too-large}) and a
 * {@code Content-Type}, if any, of {@code application/octet-stream} ({@code 415 unsupported-media-type}); these close
 * the connection. Then, in this order: a revision the fork does not serve is {@code 404 method-not-found}; a body that
 * does not decode {@code 400 ssz-decode-error}; more hashes than the limit {@code 413 request-too-large}; V2 with any
 * blob missing {@code 204} (empty); else {@code 200} with the response container ({@code 500 internal} if the lookup
 * fails unexpectedly, logged). {@code Eth-Execution-Version} is ignored. Errors are {@link Problem}s. Never blocks;
 * thread-safe. The metrics hear it as method {@link SszRoute#method()}, its refusals as the JSON-RPC codes the error
 * model maps them to ({@code -32601}, {@code -32602}, {@code -38004}, {@code -32603}).
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
        this.maxHashes = Math.min(maxBlobsPerRequest, BlobsRequest.MAX_BLOBS_REQUEST);
        this.metrics = metrics;
    }

    @Override
    public boolean needsJwt() {
        return true;
    }

    @Override
    public int maxBodyBytes() {
        return route.fixedBytes() + maxHashes * BlobSizes.VERSIONED_HASH_SIZE;
    }

    @Override
    public Rejection tooLarge(long contentLength) {
        return Problem.requestTooLarge(
                        (contentLength < 0 ? "a body over " + maxBodyBytes() : "a body of " + contentLength)
                                + " bytes, at most " + maxBodyBytes() + " ("
                                + maxHashes + " versioned hashes)")
                .rejection();
    }

    @Override
    public Rejection rejectHead(HttpVersion version, HttpHeaders headers) {
        String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
        if (type == null) {
            return null;
        }
        int parameters = type.indexOf(';');
        String mediaType = (parameters < 0 ? type : type.substring(0, parameters)).trim();
        return HttpHeaderValues.APPLICATION_OCTET_STREAM.contentEqualsIgnoreCase(mediaType)
                ? null
                : Problem.unsupportedMediaType(
                                "Content-Type " + PeerText.escape(type) + ", not application/octet-stream")
                        .rejection();
    }

    /** Decodes {@code body} (the whole request body, its indices unchanged, not released) and responds. */
    @Override
    public void handle(ByteBuf body, ReplySink sink) {
        GetBlobs.Version version = route.version();
        if (!version.servedUnder(served)) {
            refuse(
                    sink,
                    Problem.methodNotFound(route.path() + " is not served under "
                            + served.name().toLowerCase(Locale.ROOT)),
                    RpcError.METHOD_NOT_FOUND);
            return;
        }
        BlobsRequest request;
        try {
            request = BlobsRequest.decode(body, route.fixedBytes(), maxHashes);
        } catch (SszException e) {
            refuse(
                    sink,
                    e.problem(),
                    e.problem().status() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE
                            ? RpcError.TOO_LARGE_REQUEST
                            : RpcError.INVALID_PARAMS);
            return;
        }
        BlobLookup.Found found;
        BlobsResponse response; // null: 204
        try {
            found = lookup.lookUp(version, request.hashes(), route.method());
            response = version == GetBlobs.Version.V2 && !found.all()
                    ? null
                    : new BlobsResponse(version, found.entries(), request.cells());
        } catch (RuntimeException e) {
            LOG.error("{} failed", route.method(), e);
            refuse(sink, Problem.internal("internal error"), RpcError.INTERNAL_ERROR);
            return;
        }
        ResponseSummary summary = new ResponseSummary(route.method(), request.hashes().length, found.available(), null);
        metrics.replied(route.method(), null);
        if (response == null) {
            sink.respondEmpty(HttpResponseStatus.NO_CONTENT, summary);
        } else {
            sink.respond(HttpResponseStatus.OK, response, summary);
        }
    }

    private void refuse(ReplySink sink, Problem problem, RpcError outcome) {
        metrics.replied(route.method(), outcome);
        problem.answer(sink, new ResponseSummary(route.method(), 0, 0, outcome));
    }
}
