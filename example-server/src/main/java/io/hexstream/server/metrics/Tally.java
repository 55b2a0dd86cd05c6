package io.hexstream.server.metrics;

/**
 * What one JSON-RPC result counts toward the summary of its HTTP response ({@link ResponseSummary}): the versioned
 * hashes a getBlobs call asked for and the blobs its result returns; {@link #NONE} for every other result. The method
 * that makes the result says what it counts, so that JSON-RPC sums tallies without knowing what they count.
 *
 * @param hashes versioned hashes asked for
 * @param hits blobs returned
 */
public record Tally(int hashes, int hits) {
    /** Counts nothing. */
    public static final Tally NONE = new Tally(0, 0);

    /** The sum of this tally and {@code other}. */
    public Tally plus(Tally other) {
        return new Tally(hashes + other.hashes, hits + other.hits);
    }
}
