package io.hexstream.client;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * A getBlobs client of one endpoint, whatever its transport: calls answered in the order made (over HTTP/2 each on a
 * stream of its own, in whatever order the streams end), each result's entries handed to the call's
 * {@link BlobsListener} as they are decoded. Thread-safe; {@link #pause()} and {@link #resume()} may be called from a
 * listener. Calls must not be made from the client's own event loop (connecting waits).
 */
public interface BlobsClient extends AutoCloseable {

    /**
     * Sends {@code call}; its result's entries go to {@code listener} as they are decoded.
     *
     * @return completes with the outcome once the reply has ended and was a well-formed result; fails with
     *     {@link RpcErrorException} (a JSON-RPC error), {@link GetBlobsResponseException} (malformed JSON or hex, a
     *     result of another shape, with its path and byte offset), {@link BadResponseException} (a status other than
     *     success, a reply longer than its call allows, malformed SSZ), or the I/O failure that ended the connection
     * @throws IOException if the connection cannot be made
     */
    CompletableFuture<BlobsOutcome> call(GetBlobsCall call, BlobsListener listener)
            throws IOException, InterruptedException;

    /** Stops reading the socket after the read under way (paced clients only). */
    void pause();

    /** Reads the socket again after {@link #pause()} (paced clients only). */
    void resume();

    /**
     * Closes the connection (failing the calls under way) and stops the event loop; from any thread, also while a call
     * is connecting (it then fails).
     */
    @Override
    void close();
}
