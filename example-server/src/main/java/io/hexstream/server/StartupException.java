package io.hexstream.server;

/**
 * A start-up step failed for a reason the operator can fix: the message is one line naming what failed and the option
 * or port to look at ({@code port 8551 on 127.0.0.1 is in use}, {@code --jwt-secret /x/jwt.hex: no such file}); the
 * cause, if any, is for {@code --log-level debug}.
 */
public final class StartupException extends Exception {
    private static final long serialVersionUID = 1L;

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }

    public StartupException(String message) {
        super(message);
    }
}
