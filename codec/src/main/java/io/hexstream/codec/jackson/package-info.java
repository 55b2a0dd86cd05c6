/**
 * Jackson writing and reading of bytes as {@code "0x…"} hex without a {@code String} per value:
 * {@link io.hexstream.codec.jackson.HexModule} for tuweni {@code Bytes}, and
 * {@link io.hexstream.codec.jackson.HexSerializer} and {@link io.hexstream.codec.jackson.HexDeserializer} for
 * {@code byte[]} fields. Needs {@code jackson-databind} (an optional dependency of the codec); nothing in the core
 * packages refers to it.
 */
package io.hexstream.codec.jackson;
