package io.hexstream.server;

import io.hexstream.server.http.EngineServer;
import io.hexstream.server.ipc.IpcServer;
import java.net.InetSocketAddress;

/**
 * The server's ports by name, bound by {@code http}: the Engine API's ({@code --port}, JWT required),
 * {@code eth_sendRawTransaction} without JWT ({@code --rpc-port}; {@code null}: none) and {@code GET /metrics}
 * ({@code --metrics-port}; {@code null}: none); and the IPC socket ({@code --ipc-path}; {@code null}: none).
 */
record ListeningPorts(
        EngineServer http, EngineServer.Port engine, EngineServer.Port rpc, EngineServer.Port metrics, IpcServer ipc) {
    /** Where {@code port}, one of these, is bound; {@code null} for a port the server does not have. */
    InetSocketAddress address(EngineServer.Port port) {
        return port != null ? http.address(port) : null;
    }

    /** Stops serving: the IPC socket (its file removed), then the ports. */
    void close() {
        if (ipc != null) {
            ipc.close();
        }
        http.close();
    }
}
