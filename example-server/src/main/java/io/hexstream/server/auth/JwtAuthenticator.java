package io.hexstream.server.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Date;

/**
 * Checks the {@code Authorization: Bearer} token of each request (execution-apis {@code src/engine/authentication.md}):
 * HS256 signed with the shared secret ({@code none} and every other {@code alg} refused), with an {@code iat} claim
 * within ±60 seconds of now. {@code exp} and {@code nbf}, if present, must hold too (RFC 7519 §4.1.4, §4.1.5); other
 * claims are ignored. Each of these claims must be a NumericDate of whole seconds from 0 to 253,402,300,799
 * (9999-12-31T23:59:59Z); anything else (a string, a fraction, a negative or larger number) is refused with the reason,
 * never an exception. The token is taken apart here (its parts are read by Jackson, as java-jwt's own decoder throws on
 * a claim it cannot make a date of); the HMAC is java-jwt's, compared in constant time. Thread-safe.
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
     * @return {@code null} if the token is good, else why it is refused: its {@link Refusal.Reason} and one line (sent
     *     to the client and logged): missing, malformed, wrong algorithm or signature, or which claim is wrong and by
     *     how many seconds
     */
    @Override
    public Refusal refusal(String authorization) {
        if (authorization == null) {
            return new Refusal(Refusal.Reason.MISSING, "no Authorization header");
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return new Refusal(Refusal.Reason.NOT_BEARER, "Authorization is not a Bearer token");
        }
        String[] parts = authorization.substring(7).strip().split("\\.", -1);
        if (parts.length != 3) {
            return new Refusal(
                    Refusal.Reason.MALFORMED,
                    "malformed token: " + parts.length + " parts, a JWT has 3 separated by '.'");
        }
        JsonNode header = json(parts[0]);
        if (header == null || !header.isObject()) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the header is not base64url-encoded JSON");
        }
        String alg = header.path("alg").asText(null);
        if (!algorithm.getName().equals(alg)) {
            return new Refusal(Refusal.Reason.ALGORITHM, "alg is " + alg + ", only HS256 is accepted");
        }
        byte[] signature;
        try {
            signature = Base64.getUrlDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the signature is not base64url");
        }
        byte[] expected = algorithm.sign(
                parts[0].getBytes(StandardCharsets.US_ASCII), parts[1].getBytes(StandardCharsets.US_ASCII));
        if (!MessageDigest.isEqual(expected, signature)) {
            return new Refusal(
                    Refusal.Reason.SIGNATURE, "wrong signature: the token is not signed with this server's secret");
        }
        JsonNode claims = json(parts[1]);
        if (claims == null) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the payload is not base64url-encoded JSON");
        }
        return claimsRefusal(claims, clock.instant().getEpochSecond());
    }

    private static Refusal claimsRefusal(JsonNode claims, long now) {
        if (claims == null || !claims.isObject()) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the payload is not a JSON object");
        }
        JsonNode iatNode = claims.get("iat");
        if (iatNode == null) {
            return new Refusal(Refusal.Reason.IAT, "iat is missing");
        }
        String wrong = numericDateRefusal("iat", iatNode);
        if (wrong != null) {
            return new Refusal(Refusal.Reason.IAT, wrong);
        }
        long iat = iatNode.longValue();
        if (iat < now - IAT_WINDOW.toSeconds()) {
            return new Refusal(
                    Refusal.Reason.IAT,
                    "iat is " + (now - iat) + " s before now, at most " + IAT_WINDOW.toSeconds() + " s either way");
        }
        if (iat > now + IAT_WINDOW.toSeconds()) {
            return new Refusal(
                    Refusal.Reason.IAT,
                    "iat is " + (iat - now) + " s after now, at most " + IAT_WINDOW.toSeconds() + " s either way");
        }
        JsonNode exp = claims.get("exp");
        if (exp != null) {
            wrong = numericDateRefusal("exp", exp);
            if (wrong != null) {
                return new Refusal(Refusal.Reason.EXP, wrong);
            }
            if (exp.longValue() <= now) {
                return new Refusal(
                        Refusal.Reason.EXP,
                        "exp is " + (now - exp.longValue()) + " s before now: the token has expired");
            }
        }
        JsonNode nbf = claims.get("nbf");
        if (nbf != null) {
            wrong = numericDateRefusal("nbf", nbf);
            if (wrong != null) {
                return new Refusal(Refusal.Reason.NBF, wrong);
            }
            if (nbf.longValue() > now) {
                return new Refusal(
                        Refusal.Reason.NBF,
                        "nbf is " + (nbf.longValue() - now) + " s after now: the token is not valid yet");
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
            return claim + " " + value.decimalValue().toPlainString() + " is not a whole number of seconds";
        }
        BigInteger seconds = value.bigIntegerValue();
        if (seconds.signum() < 0 || seconds.compareTo(BigInteger.valueOf(MAX_NUMERIC_DATE)) > 0) {
            return claim + " " + seconds + " is out of range (0 to " + MAX_NUMERIC_DATE + " s)";
        }
        return null;
    }

    /** The JSON of a base64url part, or {@code null} if it is not that. */
    private static JsonNode json(String part) {
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(part));
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A fresh token with {@code iat} = now, as a consensus client would send. */
    public String token() {
        return JWT.create().withIssuedAt(Date.from(clock.instant())).sign(algorithm);
    }
}
