package io.hexstream.server.engine;

/** The fork the server serves: which getBlobs methods answer. */
public enum Fork {
    /** Before Osaka: {@code engine_getBlobsV1} (execution-apis {@code cancun.md}). */
    PRAGUE,
    /** Osaka (PeerDAS): {@code engine_getBlobsV2} and {@code V3} ({@code osaka.md}); V1 is {@code -38005 Unsupported fork}. */
    OSAKA
}
