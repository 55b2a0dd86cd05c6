package io.hexstream.server.auth;

import java.util.Locale;

/**
 * Why a request's JWT is refused: the class of the fault, for the metrics, and the one line sent to the client and
 * logged.
 *
 * @param reason which check failed
 * @param message e.g. {@code iat is 75 s before now, at most 60 s either way}
 */
public record Refusal(Reason reason, String message) {
    /** The checks of a token, in the order they are made. */
    public enum Reason {
        /** No {@code Authorization} header. */
        MISSING,
        /** An {@code Authorization} header that is not {@code Bearer}. */
        NOT_BEARER,
        /** Not three base64url parts of JSON. */
        MALFORMED,
        /** An {@code alg} other than HS256. */
        ALGORITHM,
        /** Not signed with the server's secret. */
        SIGNATURE,
        /** {@code iat} missing, not a NumericDate, or more than 60 s from now. */
        IAT,
        /** {@code exp} not a NumericDate, or past. */
        EXP,
        /** {@code nbf} not a NumericDate, or to come. */
        NBF;

        /** The label the metrics use, e.g. {@code not_bearer}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
