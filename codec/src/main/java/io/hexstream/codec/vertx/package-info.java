/**
 * Streaming a {@link io.hexstream.codec.json.JsonBody} into a Vert.x {@code HttpServerResponse}:
 * {@link io.hexstream.codec.vertx.VertxJsonBodyWriter}. Needs {@code vertx-core} 4.5 (an optional dependency of the
 * codec); nothing in the core packages refers to it.
 */
package io.hexstream.codec.vertx;
