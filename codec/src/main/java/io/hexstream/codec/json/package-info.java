/**
 * A JSON document described once and produced in chunks: {@link io.hexstream.codec.json.JsonBodyBuilder} records
 * tokens, names, strings and hex values that reference their bytes (or their digits, already encoded),
 * {@link io.hexstream.codec.json.JsonBody} knows its exact length before its first byte (a
 * {@link io.hexstream.codec.body.StreamedBody} of {@code application/json}), and
 * {@link io.hexstream.codec.json.JsonBodyInput} produces it as direct {@code ByteBuf} chunks (and retained slices of
 * encoded digits), a {@link io.netty.handler.stream.ChunkedInput} for whichever transport streams it. The other way,
 * {@link io.hexstream.codec.json.JsonHexReader} reads a document from chunks as they arrive, decoding each hex value
 * straight into the destination its {@link io.hexstream.codec.json.JsonTokenListener} picks. Knows nothing of HTTP.
 */
package io.hexstream.codec.json;
