/**
 * A client of any Engine API endpoint's getBlobs methods ({@code engine_getBlobsV1} to {@code V4}): a
 * {@link io.hexstream.server.client.GetBlobsClient} keeps one HTTP/1.1 connection, signs each request with a fresh JWT,
 * pipelines calls, and reads each response as it arrives through the codec's
 * {@link io.hexstream.codec.http.JsonResponseReader}, handing each result entry to a
 * {@link io.hexstream.server.client.BlobsListener} as soon as its last byte is decoded. It knows the Engine API's
 * shapes and the JSON and HTTP specs, not any server's bytes; it uses nothing of the server (pool, cache, engine), only
 * the value types of {@code blob} and the token of {@code auth}. The transport-neutral parts (the call, the listener,
 * the entries, the outcome) are apart from the JSON ones ({@link io.hexstream.server.client.JsonGetBlobs},
 * {@link io.hexstream.server.client.JsonBlobsReader}).
 */
package io.hexstream.server.client;
