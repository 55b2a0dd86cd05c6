/**
 * Binary SSZ getBlobs on the Engine API port, per the EIP-8178 draft ("Binary SSZ Transport for the
 * Engine API"): the routes ({@link io.hexstream.server.ssz.SszRoute}, registered on the port's route
 * table), the request's decoder ({@link io.hexstream.server.ssz.GetBlobsRequestDecoder}), each route's
 * handler ({@link io.hexstream.server.ssz.SszGetBlobs}), and the responses' bytes
 * ({@link io.hexstream.server.ssz.GetBlobsResponse}, its layout described once, produced chunk by chunk
 * by {@link io.hexstream.server.ssz.GetBlobsResponseInput}, sent by the codec's
 * {@link io.hexstream.codec.http.StreamedResponseEncoder}). Exactly these containers, nothing general:
 * SSZ integers little-endian, variable-size fields as 4-byte offsets.
 */
package io.hexstream.server.ssz;
