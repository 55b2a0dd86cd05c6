/**
 * Hex itself, the first step of the path: lowercase encoding of bytes ({@code byte[]}, {@code ByteBuffer},
 * {@code ByteBuf}) into a {@code String}, a {@code byte[]}, a {@code ByteBuffer} or a {@code ByteBuf}, by the fastest
 * kernel the JVM allows ({@link io.hexstream.codec.Hex#kernel()}), and strict decoding
 * ({@link io.hexstream.codec.HexDecoder}, which names the position of the first bad character). Depends on Netty's
 * buffers only.
 */
package io.hexstream.codec;
