package io.hexstream.server.ssz;

import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.engine.GetBlobs;
import io.hexstream.server.http.Route;
import io.hexstream.server.http.RouteTable;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Locale;

/**
 * The blob routes of the REST Engine API (execution-apis #793, {@code refactor.md}, "Blob pool"): {@code POST
 * /engine/v1/blobs/v1} to {@code /v4}, each the binary form of {@code engine_getBlobsV1} to {@code V4};
 * {@link #register} puts them, {@code GET /engine/v1/capabilities} and {@code GET /engine/v1/identity} on the port's
 * route table.
 */
public enum SszRoute {
    /** {@code BlobsV1Request} → {@code BlobsV1Response}, as {@code engine_getBlobsV1}. */
    BLOBS_V1(GetBlobs.Version.V1, BlobsRequest.FIXED_V1),
    /** {@code BlobsV2Request} → {@code BlobsV2Response}, as {@code engine_getBlobsV2}. */
    BLOBS_V2(GetBlobs.Version.V2, BlobsRequest.FIXED_V1),
    /** {@code BlobsV2Request} → {@code BlobsV3Response}, as {@code engine_getBlobsV3}. */
    BLOBS_V3(GetBlobs.Version.V3, BlobsRequest.FIXED_V1),
    /** {@code BlobsV4Request} → {@code BlobsV4Response}, as {@code engine_getBlobsV4}. */
    BLOBS_V4(GetBlobs.Version.V4, BlobsRequest.FIXED_V4);

    /** The prefix of every REST route's path. */
    public static final String PREFIX = "/engine/";
    /** The capabilities document's path. */
    public static final String CAPABILITIES = "/engine/v1/capabilities";
    /** The identity document's path. */
    public static final String IDENTITY = "/engine/v1/identity";

    private final GetBlobs.Version version;
    private final int fixedBytes;
    private final String revision;
    private final String path;
    private final String method;

    SszRoute(GetBlobs.Version version, int fixedBytes) {
        this.version = version;
        this.fixedBytes = fixedBytes;
        this.revision = version.name().toLowerCase(Locale.ROOT);
        this.path = "/engine/v1/blobs/" + revision;
        this.method = "ssz_getBlobs" + version.name();
    }

    /**
     * Adds every route to {@code table}: the four blob routes (each served by an {@link SszGetBlobs}, a revision the
     * fork does not serve answering {@code 404}), the capabilities and the identity documents.
     *
     * @param served the fork the server serves
     * @param maxBlobsPerRequest {@code --max-blobs-per-request}
     */
    public static RouteTable.Builder register(
            RouteTable.Builder table, BlobLookup lookup, Fork served, int maxBlobsPerRequest, ServerMetrics metrics) {
        for (SszRoute route : values()) {
            table.add(HttpMethod.POST, route.path, new SszGetBlobs(route, lookup, served, maxBlobsPerRequest, metrics));
        }
        table.add(
                HttpMethod.GET,
                CAPABILITIES,
                new JsonDocumentRoute(
                        "rest_capabilities", CapabilitiesDocument.json(served, maxBlobsPerRequest), metrics));
        table.add(HttpMethod.GET, IDENTITY, new JsonDocumentRoute("rest_identity", IdentityDocument.json(), metrics));
        return table;
    }

    /**
     * The fallback of the REST routes' prefix, {@link #PREFIX}: {@code 404 method-not-found} for a URL under it that
     * matches no endpoint.
     */
    public static Route methodNotFound() {
        return new MethodNotFoundRoute();
    }

    /** The path, e.g. {@code /engine/v1/blobs/v2}. */
    public String path() {
        return path;
    }

    /** The revision as the capabilities document lists it, e.g. {@code v2}. */
    public String revision() {
        return revision;
    }

    /** The getBlobs version it answers as. */
    public GetBlobs.Version version() {
        return version;
    }

    /** The request container's fixed part in bytes: 4, or 20 for V4 ({@link BlobsRequest}). */
    int fixedBytes() {
        return fixedBytes;
    }

    /** The metrics' and access log's method label, {@code ssz_getBlobsV1} to {@code V4}. */
    public String method() {
        return method;
    }
}
