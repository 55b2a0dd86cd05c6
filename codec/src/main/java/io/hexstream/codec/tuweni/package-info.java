/**
 * Hex encoding of tuweni {@code Bytes} (Besu's byte type) through {@link io.hexstream.codec.Hex}. Needs
 * {@code tuweni-bytes} (an optional dependency of the codec) on the class path; nothing in the core packages refers to
 * it.
 */
package io.hexstream.codec.tuweni;
