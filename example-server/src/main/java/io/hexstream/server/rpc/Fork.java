package io.hexstream.server.rpc;

/** The fork the server serves: which getBlobs methods answer. */
public enum Fork {
    /** Before Osaka: {@code engine_getBlobsV1}. */
    PRAGUE,
    /** Osaka (PeerDAS): {@code engine_getBlobsV2} and {@code V3}; V1 is {@code -38005 Unsupported fork}. */
    OSAKA
}
