package io.hexstream.client;

/**
 * A getBlobs call answered with a well-formed result: how much of it, and when, in nanoseconds from the moment the
 * request was handed to the connection.
 *
 * @param asked the versioned hashes asked for
 * @param available the entries that are not {@code null} (0 for a {@code null} result)
 * @param bodyBytes the response body's length, as received (after any chunked coding)
 * @param toHead until the response head was decoded (its first bytes: the time to first byte)
 * @param toFirstBlob until the first entry that is not {@code null} was handed over; -1 if none was
 * @param toLastByte until the body's last byte was read
 */
public record BlobsOutcome(int asked, int available, long bodyBytes, long toHead, long toFirstBlob, long toLastByte) {}
