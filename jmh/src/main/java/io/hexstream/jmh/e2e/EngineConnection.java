package io.hexstream.jmh.e2e;

import java.io.IOException;

/**
 * One client connection of the end-to-end matrix, over one of its connection kinds: HTTP keep-alive or per request
 * ({@link LoopbackClient}), WebSocket ({@link WebSocketLoopbackClient}), IPC ({@link IpcLoopbackClient}) or HTTP/2
 * ({@link H2cLoopbackClient}). A request is given as the bytes the kind sends (an HTTP request, a WebSocket frame, a
 * line; HTTP/2 is given the HTTP/1.1 request); the reply is read to its last byte into a reused buffer, nothing parsed
 * or kept.
 */
interface EngineConnection extends AutoCloseable {

    /** Sends {@code request} and reads the reply to its last byte; returns the reply body's length. */
    long exchange(byte[] request) throws IOException;

    /** Sends {@code request} and returns the whole reply body (for the untimed checks). */
    byte[] fetch(byte[] request) throws IOException;

    /** HTTP/2 DATA frames this client has read so far; 0 for the kinds without them. */
    default long dataFrames() {
        return 0;
    }

    @Override
    void close() throws IOException;
}
