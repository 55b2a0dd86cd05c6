package io.hexstream.server.ssz;

import io.hexstream.server.engine.GetBlobs;

/**
 * The binary SSZ routes served on the Engine API port, the one table of them (EIP-8178 draft,
 * "Endpoints", "Blobs": {@code POST /engine/v{N}/blobs}, the version number that of the JSON-RPC method
 * it replaces). A path is matched exactly, without its query; every other path is not an SSZ route.
 */
public enum SszRoute {
    /** {@code GetBlobsRequest} → {@code GetBlobsV1Response}, as {@code engine_getBlobsV1}. */
    GET_BLOBS_V1("/engine/v1/blobs", GetBlobs.Version.V1),
    /** {@code GetBlobsRequest} → {@code GetBlobsV2Response}, as {@code engine_getBlobsV2}. */
    GET_BLOBS_V2("/engine/v2/blobs", GetBlobs.Version.V2),
    /** {@code GetBlobsRequest} → {@code GetBlobsV3Response}, as {@code engine_getBlobsV3}. */
    GET_BLOBS_V3("/engine/v3/blobs", GetBlobs.Version.V3);

    private static final SszRoute[] ROUTES = values();

    private final String path;
    private final GetBlobs.Version version;
    private final String method;

    SszRoute(String path, GetBlobs.Version version) {
        this.path = path;
        this.version = version;
        this.method = "ssz_getBlobs" + version.name();
    }

    /**
     * The route of a request's {@code uri} (its path exactly, a query ignored), or {@code null} if it is
     * none. Allocates nothing.
     */
    public static SszRoute ofUri(String uri) {
        for (SszRoute route : ROUTES) {
            int end = route.path.length();
            if (uri.startsWith(route.path) && (uri.length() == end || uri.charAt(end) == '?')) {
                return route;
            }
        }
        return null;
    }

    /** The path, e.g. {@code /engine/v2/blobs}. */
    public String path() {
        return path;
    }

    /** The getBlobs version it answers as. */
    public GetBlobs.Version version() {
        return version;
    }

    /** The metrics' and access log's method label, {@code ssz_getBlobsV1} to {@code V3}. */
    public String method() {
        return method;
    }
}
