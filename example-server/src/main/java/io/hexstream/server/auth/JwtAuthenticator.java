package io.hexstream.server.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.JWTDecodeException;
import com.auth0.jwt.exceptions.SignatureVerificationException;
import com.auth0.jwt.interfaces.DecodedJWT;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;

/**
 * Checks the {@code Authorization: Bearer} token of each request (execution-apis
 * {@code src/engine/authentication.md}): HS256 signed with the shared secret ({@code none} and every
 * other {@code alg} refused), with an {@code iat} claim within ±60 seconds of now. {@code exp} and
 * {@code nbf}, if present, must hold too (RFC 7519 §4.1.4, §4.1.5); other claims are ignored. Each of
 * these claims must be a NumericDate of whole seconds from 0 to 253,402,300,799 (9999-12-31T23:59:59Z);
 * anything else (a string, a fraction, a negative or larger number) is refused with the reason, never
 * an exception. The signature is checked by java-jwt, the claims from the payload's JSON (Jackson).
 * Thread-safe.
 */
public final class JwtAuthenticator implements Authenticator {
    /** How far {@code iat} may be from now, either way. */
    public static final Duration IAT_WINDOW = Duration.ofSeconds(60);
    /** The largest NumericDate taken, seconds: 9999-12-31T23:59:59Z. */
    public static final long MAX_NUMERIC_DATE = 253_402_300_799L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Algorithm algorithm;
    private final Clock clock;

    public JwtAuthenticator(byte[] secret, Clock clock) {
        this.algorithm = Algorithm.HMAC256(secret);
        this.clock = clock;
    }

    /**
     * Verifies the value of an {@code Authorization} header.
     *
     * @return {@code null} if the token is good, else why it is refused, one line (sent to the client
     *     and logged): missing, malformed, wrong algorithm or signature, or which claim is wrong and by
     *     how many seconds
     */
    @Override
    public String refusal(String authorization) {
        if (authorization == null) {
            return "no Authorization header";
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return "Authorization is not a Bearer token";
        }
        DecodedJWT jwt;
        try {
            jwt = JWT.decode(authorization.substring(7).strip());
        } catch (JWTDecodeException e) {
            return "malformed token: " + oneLine(e.getMessage());
        }
        if (!algorithm.getName().equals(jwt.getAlgorithm())) {
            return "alg is " + jwt.getAlgorithm() + ", only HS256 is accepted";
        }
        try {
            algorithm.verify(jwt);
        } catch (SignatureVerificationException e) {
            return "wrong signature: the token is not signed with this server's secret";
        }
        JsonNode claims;
        try {
            claims = JSON.readTree(Base64.getUrlDecoder().decode(jwt.getPayload()));
        } catch (IOException | IllegalArgumentException e) {
            return "malformed token: the payload is not JSON";
        }
        return claimsRefusal(claims, clock.instant().getEpochSecond());
    }

    private static String claimsRefusal(JsonNode claims, long now) {
        if (claims == null || !claims.isObject()) {
            return "malformed token: the payload is not a JSON object";
        }
        JsonNode iatNode = claims.get("iat");
        if (iatNode == null) {
            return "iat is missing";
        }
        String wrong = numericDateRefusal("iat", iatNode);
        if (wrong != null) {
            return wrong;
        }
        long iat = iatNode.longValue();
        if (iat < now - IAT_WINDOW.toSeconds()) {
            return "iat is " + (now - iat) + " s before now, at most " + IAT_WINDOW.toSeconds() + " s either way";
        }
        if (iat > now + IAT_WINDOW.toSeconds()) {
            return "iat is " + (iat - now) + " s after now, at most " + IAT_WINDOW.toSeconds() + " s either way";
        }
        JsonNode exp = claims.get("exp");
        if (exp != null) {
            wrong = numericDateRefusal("exp", exp);
            if (wrong != null) {
                return wrong;
            }
            if (exp.longValue() <= now) {
                return "exp is " + (now - exp.longValue()) + " s before now: the token has expired";
            }
        }
        JsonNode nbf = claims.get("nbf");
        if (nbf != null) {
            wrong = numericDateRefusal("nbf", nbf);
            if (wrong != null) {
                return wrong;
            }
            if (nbf.longValue() > now) {
                return "nbf is " + (nbf.longValue() - now) + " s after now: the token is not valid yet";
            }
        }
        return null;
    }

    /** Why {@code value} is not a NumericDate of whole seconds in range, or {@code null} if it is. */
    private static String numericDateRefusal(String claim, JsonNode value) {
        if (!value.isNumber()) {
            return claim + " is not a number";
        }
        if (!value.isIntegralNumber()) {
            return claim + " " + value.asText() + " is not a whole number of seconds";
        }
        BigInteger seconds = value.bigIntegerValue();
        if (seconds.signum() < 0 || seconds.compareTo(BigInteger.valueOf(MAX_NUMERIC_DATE)) > 0) {
            return claim + " " + seconds + " is out of range (0 to " + MAX_NUMERIC_DATE + " s)";
        }
        return null;
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("\\s+", " ");
    }

    /** A fresh token with {@code iat} = now, as a consensus client would send. */
    public String token() {
        return JWT.create().withIssuedAt(Date.from(clock.instant())).sign(algorithm);
    }
}
