package io.hexstream.jmh.e2e;

import java.io.IOException;

/**
 * One client connection of the end-to-end matrix, over one of its connection kinds: HTTP keep-alive or per request
 * ({@link LoopbackClient}), WebSocket ({@link WebSocketLoopbackClient}) or IPC ({@link IpcLoopbackClient}). A request
 * is given as the bytes the kind sends (an HTTP request, a WebSocket frame, a line); the reply is read to its last byte
 * into a reused buffer, nothing parsed or kept.
 */
interface EngineConnection extends AutoCloseable {

    /** Sends {@code request} and reads the reply to its last byte; returns the reply body's length. */
    long exchange(byte[] request) throws IOException;

    /** Sends {@code request} and returns the whole reply body (for the untimed checks). */
    byte[] fetch(byte[] request) throws IOException;

    @Override
    void close() throws IOException;
}
