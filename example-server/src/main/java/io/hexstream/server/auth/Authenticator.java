package io.hexstream.server.auth;

/** Decides whether a request may be served, from its {@code Authorization} header. Thread-safe. */
@FunctionalInterface
public interface Authenticator {
    /** Serves every request: the unauthenticated {@code --rpc-port}. */
    Authenticator NONE = authorization -> null;

    /**
     * @param authorization the header's value, or {@code null} if absent
     * @return {@code null} if the request may be served, else why not (its class, and one line for the client and the
     *     log)
     */
    Refusal refusal(String authorization);
}
