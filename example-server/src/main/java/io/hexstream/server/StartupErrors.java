package io.hexstream.server;

import io.hexstream.server.http.EngineServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * Turns what failed at start-up into the one line the command prints ({@link StartupException}): the option or port to
 * look at, then why, without the path or address the line names already.
 */
final class StartupErrors {
    /** Ports below this need a privilege to bind on most systems. */
    private static final int FIRST_UNPRIVILEGED_PORT = 1024;

    private StartupErrors() {}

    /** What went wrong with a file, without the path that the message names already. */
    static String reason(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /**
     * A port that could not be bound: {@code port 8551 on 127.0.0.1 is in use} (a {@link BindException} on an address
     * of this machine), {@code --host 203.0.113.1: not an address of this machine} (a {@code BindException} on
     * another), {@code --host x: unknown host}, or the cause's own reason.
     *
     * @param portOption how the message names the port: {@code "port"}, {@code "--rpc-port"}, ...
     * @param hostOption the option that gave its host: {@code "--host"} or {@code "--metrics-host"}
     */
    static StartupException notBound(EngineServer.BindFailure failure, String portOption, String hostOption) {
        String host = failure.port().host();
        int port = failure.port().port();
        String at = portOption + " " + port + " on " + host;
        Throwable cause = failure.getCause();
        if (cause instanceof UnresolvedAddressException) {
            return new StartupException(hostOption + " " + host + ": unknown host", failure);
        }
        if (cause instanceof BindException && !isOfThisMachine(host)) {
            return new StartupException(hostOption + " " + host + ": not an address of this machine", failure);
        }
        if (cause instanceof BindException) {
            boolean privileged = port > 0 && port < FIRST_UNPRIVILEGED_PORT;
            return new StartupException(at + (privileged ? " is in use, or privileged" : " is in use"), failure);
        }
        String why = cause instanceof IOException io ? reason(io) : String.valueOf(cause.getMessage());
        return new StartupException(at + ": " + why, failure);
    }

    /** Whether {@code host} is one of this machine's addresses (any, loopback, or an interface's). */
    private static boolean isOfThisMachine(String host) {
        try {
            InetAddress address = InetAddress.getByName(host);
            return address.isAnyLocalAddress()
                    || address.isLoopbackAddress()
                    || NetworkInterface.getByInetAddress(address) != null;
        } catch (IOException e) { // it resolved for the bind: take it as ours, so the port is the one to look at
            return true;
        }
    }
}
