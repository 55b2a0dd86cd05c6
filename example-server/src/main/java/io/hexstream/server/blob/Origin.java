package io.hexstream.server.blob;

/**
 * Where a pooled item came from, which decides what it may take from the pool and what it may evict: an item from an
 * unauthenticated port holds at most a bounded share of the pool and evicts only items of its own origin.
 */
public enum Origin {
    /**
     * The Engine API port (JWT), or the server itself (generated blobs). Items stored before the origin was kept are
     * read as this one.
     */
    AUTHENTICATED,
    /** A port without JWT ({@code --rpc-port}): anyone who reaches it. */
    UNAUTHENTICATED
}
