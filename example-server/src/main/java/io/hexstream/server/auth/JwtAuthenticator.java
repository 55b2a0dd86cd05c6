package io.hexstream.server.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTVerificationException;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.auth0.jwt.interfaces.JWTVerifier;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

/**
 * Checks the {@code Authorization: Bearer} token of each request (execution-apis
 * {@code src/engine/authentication.md}): HS256 signed with the shared secret ({@code none} and every
 * other {@code alg} refused), with a numeric {@code iat} claim within ±60 seconds of now. Other claims
 * are ignored. Thread-safe.
 */
public final class JwtAuthenticator implements Authenticator {
    /** How far {@code iat} may be from now, either way. */
    public static final Duration IAT_WINDOW = Duration.ofSeconds(60);

    private final Algorithm algorithm;
    private final JWTVerifier verifier;
    private final Clock clock;

    public JwtAuthenticator(byte[] secret, Clock clock) {
        this.algorithm = Algorithm.HMAC256(secret);
        this.clock = clock;
        // The library checks the signature, alg = HS256 and iat not after now + 60 s; the lower bound
        // is checked below, in whole seconds like iat itself.
        this.verifier = ((com.auth0.jwt.JWTVerifier.BaseVerification) JWT.require(algorithm)
                .withClaimPresence("iat").acceptIssuedAt(IAT_WINDOW.toSeconds())).build(clock);
    }

    /**
     * Verifies the value of an {@code Authorization} header.
     *
     * @return {@code null} if the token is good, else why it is refused (for the log, not the client)
     */
    @Override
    public String refusal(String authorization) {
        if (authorization == null) {
            return "no Authorization header";
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return "Authorization is not a Bearer token";
        }
        try {
            DecodedJWT jwt = verifier.verify(authorization.substring(7).strip());
            Instant issuedAt = jwt.getIssuedAtAsInstant();
            if (issuedAt == null) {
                return "iat is not a number";
            }
            if (issuedAt.getEpochSecond() < clock.instant().getEpochSecond() - IAT_WINDOW.toSeconds()) {
                return "iat " + issuedAt + " is more than 60 s before now";
            }
            return null;
        } catch (JWTVerificationException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    /** A fresh token with {@code iat} = now, as a consensus client would send. */
    public String token() {
        return JWT.create().withIssuedAt(Date.from(clock.instant())).sign(algorithm);
    }
}
