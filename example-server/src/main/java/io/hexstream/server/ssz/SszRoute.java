package io.hexstream.server.ssz;

import io.hexstream.server.engine.BlobLookup;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.engine.GetBlobs;
import io.hexstream.server.http.RouteTable;
import io.hexstream.server.metrics.ServerMetrics;
import io.netty.handler.codec.http.HttpMethod;

/**
 * The binary SSZ routes served on the Engine API port (EIP-8178 draft, "Endpoints", "Blobs":
 * {@code POST /engine/v{N}/blobs}, the version number that of the JSON-RPC method it replaces), each put on
 * the port's route table with its {@link SszGetBlobs} by {@link #register}.
 */
public enum SszRoute {
    /** {@code GetBlobsRequest} → {@code GetBlobsV1Response}, as {@code engine_getBlobsV1}. */
    GET_BLOBS_V1("/engine/v1/blobs", GetBlobs.Version.V1),
    /** {@code GetBlobsRequest} → {@code GetBlobsV2Response}, as {@code engine_getBlobsV2}. */
    GET_BLOBS_V2("/engine/v2/blobs", GetBlobs.Version.V2),
    /** {@code GetBlobsRequest} → {@code GetBlobsV3Response}, as {@code engine_getBlobsV3}. */
    GET_BLOBS_V3("/engine/v3/blobs", GetBlobs.Version.V3);

    private final String path;
    private final GetBlobs.Version version;
    private final String method;

    SszRoute(String path, GetBlobs.Version version) {
        this.path = path;
        this.version = version;
        this.method = "ssz_getBlobs" + version.name();
    }

    /**
     * Adds each route to {@code table}: {@code POST} on its path, served by an {@link SszGetBlobs}.
     *
     * @param served the fork the server serves
     * @param maxBlobsPerRequest {@code --max-blobs-per-request}
     */
    public static RouteTable.Builder register(RouteTable.Builder table, BlobLookup lookup, Fork served,
            int maxBlobsPerRequest, ServerMetrics metrics) {
        for (SszRoute route : values()) {
            table.add(HttpMethod.POST, route.path, new SszGetBlobs(route, lookup, served, maxBlobsPerRequest, metrics));
        }
        return table;
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
