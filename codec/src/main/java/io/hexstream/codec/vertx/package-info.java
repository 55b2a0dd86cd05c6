/**
 * Writing into a Vert.x {@code HttpServerResponse}: a {@link io.hexstream.codec.json.JsonBody} streamed whole by
 * {@link io.hexstream.codec.vertx.VertxJsonBodyWriter}, and {@link io.hexstream.codec.vertx.VertxResponseOutputStream},
 * an {@code OutputStream} a serializer writes into from a worker thread, in pooled direct chunks under the write
 * queue's back-pressure. Needs {@code vertx-core} 4.5 (an optional dependency of the codec); nothing in the core
 * packages refers to it.
 */
package io.hexstream.codec.vertx;
