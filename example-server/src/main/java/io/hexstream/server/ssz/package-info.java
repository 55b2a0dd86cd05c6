/**
 * The REST Engine API of execution-apis #793 ({@code refactor.md}, {@code refactor-ssz.md}, at d39e9a27) as far as the
 * server goes: binary SSZ getBlobs at {@code POST /engine/v1/blobs/v1} to {@code /v4} (the routes,
 * {@link io.hexstream.server.ssz.SszRoute}, registered on the port's route table; the request's decoding,
 * {@link io.hexstream.server.ssz.BlobsRequest}; each route's handler, {@link io.hexstream.server.ssz.SszGetBlobs}; the
 * responses' bytes, described once by {@code BlobsLayout}, carried by {@link io.hexstream.server.ssz.BlobsResponse} and
 * produced chunk by chunk by {@code BlobsResponseInput}, sent by the codec's
 * {@link io.hexstream.codec.http.StreamedResponseEncoder}), the error bodies ({@link io.hexstream.server.ssz.Problem}),
 * the two JSON documents, {@code GET /engine/v1/capabilities} and {@code /identity}, and the fallback of the
 * {@code /engine/} prefix ({@code MethodNotFoundRoute}: {@code 404 method-not-found}). Exactly these containers,
 * nothing general: SSZ integers little-endian, variable-size fields as 4-byte offsets.
 */
package io.hexstream.server.ssz;
