package io.hexstream.server.engine;

/** The fork the server serves: which getBlobs methods are served. */
public enum Fork {
    /** Before Osaka: {@code engine_getBlobsV1} (execution-apis {@code cancun.md}). */
    PRAGUE,
    /**
     * Osaka (PeerDAS): {@code engine_getBlobsV2} and {@code V3} ({@code osaka.md}), and Amsterdam's {@code V4} as geth
     * and reth serve it; V1 is {@code -38005 Unsupported fork}.
     */
    OSAKA,
    /**
     * Amsterdam: {@code engine_getBlobsV4} ({@code amsterdam.md}) besides V2 and V3; V1 is {@code -38005 Unsupported
     * fork}.
     */
    AMSTERDAM;

    /** Whether this fork is {@code other} or comes after it. */
    public boolean atLeast(Fork other) {
        return compareTo(other) >= 0;
    }
}
