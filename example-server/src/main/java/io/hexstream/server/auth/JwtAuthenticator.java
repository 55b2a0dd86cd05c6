package io.hexstream.server.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import io.hexstream.server.text.PeerText;
import java.io.IOException;
import java.math.BigDecimal;
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
 * (9999-12-31T23:59:59Z); anything else (a string, a fraction, a negative or larger number, {@code 1e400}) is refused
 * with the reason, never an exception: numbers are read exactly, as decimals, never as a {@code double}. Each part must
 * be canonical base64url as RFC 7515 §2 defines it: the URL-safe alphabet only, no padding, no non-zero bits after the
 * last byte (so that one token has one spelling). The token is taken apart here (java-jwt's own decoder throws on a
 * claim it cannot make a date of, and takes padding and stray bits); the HMAC is java-jwt's, compared in constant time.
 * Thread-safe.
 */
public final class JwtAuthenticator implements Authenticator {
    /** How far {@code iat} may be from now, either way. */
    public static final Duration IAT_WINDOW = Duration.ofSeconds(60);
    /** The largest NumericDate taken, seconds: 9999-12-31T23:59:59Z. */
    public static final long MAX_NUMERIC_DATE = 253_402_300_799L;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
    private static final BigDecimal MAX_SECONDS = BigDecimal.valueOf(MAX_NUMERIC_DATE);

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
     *     to the client and logged; what it quotes of the token escaped by {@link PeerText}): missing, malformed, wrong
     *     algorithm or signature, or which claim is wrong and by how many seconds
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
        String notCanonical = notCanonical("header", parts[0]);
        if (notCanonical == null) {
            notCanonical = notCanonical("payload", parts[1]);
        }
        if (notCanonical == null) {
            notCanonical = notCanonical("signature", parts[2]);
        }
        if (notCanonical != null) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the " + notCanonical);
        }
        JsonNode header = json(parts[0]);
        if (header == null || !header.isObject()) {
            return new Refusal(Refusal.Reason.MALFORMED, "malformed token: the header is not base64url-encoded JSON");
        }
        String alg = header.path("alg").asText(null);
        if (!algorithm.getName().equals(alg)) {
            return new Refusal(Refusal.Reason.ALGORITHM, "alg is " + PeerText.escape(alg) + ", only HS256 is accepted");
        }
        byte[] signature = Base64.getUrlDecoder().decode(parts[2]);
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
        long iat = iatNode.decimalValue().longValue();
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
            long expires = exp.decimalValue().longValue();
            if (expires <= now) {
                return new Refusal(
                        Refusal.Reason.EXP, "exp is " + (now - expires) + " s before now: the token has expired");
            }
        }
        JsonNode nbf = claims.get("nbf");
        if (nbf != null) {
            wrong = numericDateRefusal("nbf", nbf);
            if (wrong != null) {
                return new Refusal(Refusal.Reason.NBF, wrong);
            }
            long notBefore = nbf.decimalValue().longValue();
            if (notBefore > now) {
                return new Refusal(
                        Refusal.Reason.NBF, "nbf is " + (notBefore - now) + " s after now: the token is not valid yet");
            }
        }
        return null;
    }

    /**
     * Why {@code value} is not a NumericDate of whole seconds in range, or {@code null} if it is. The number is exact
     * ({@code BigDecimal}: {@code 1e400} stays {@code 1E+400}) and shown as {@code BigDecimal} writes it, exponent and
     * all, so that neither the check nor the reason costs more than the number's text.
     */
    private static String numericDateRefusal(String claim, JsonNode value) {
        if (!value.isNumber()) {
            return claim + " is not a number";
        }
        BigDecimal seconds = value.decimalValue();
        if (seconds.signum() != 0 && seconds.stripTrailingZeros().scale() > 0) {
            return claim + " " + seconds + " is not a whole number of seconds";
        }
        if (seconds.signum() < 0 || seconds.compareTo(MAX_SECONDS) > 0) {
            return claim + " " + seconds + " is out of range (0 to " + MAX_NUMERIC_DATE + " s)";
        }
        return null;
    }

    /**
     * Why {@code part} is not canonical base64url (RFC 7515 §2: RFC 4648 §5's alphabet, no {@code =} padding, and so no
     * length of 1 modulo 4, zero bits after the last byte), beginning with {@code name}; or {@code null} if it is.
     */
    private static String notCanonical(String name, String part) {
        for (int i = 0; i < part.length(); i++) {
            char c = part.charAt(i);
            if (c == '=') {
                return name + " has padding '=', which base64url in a JWT omits (RFC 7515, section 2)";
            }
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return name + " has a character outside the base64url alphabet at " + i + " (RFC 7515, section 2)";
            }
        }
        if (part.length() % 4 == 1) {
            return name + " is " + part.length() + " characters long, which no base64url encoding is";
        }
        int last = part.isEmpty() ? 0 : sextet(part.charAt(part.length() - 1));
        int unused = part.length() % 4 == 2 ? 0b1111 : part.length() % 4 == 3 ? 0b11 : 0;
        if ((last & unused) != 0) {
            return name + " has non-zero bits after its last byte, not canonical base64url (RFC 7515, section 2)";
        }
        return null;
    }

    /** The 6 bits a base64url character stands for. */
    private static int sextet(char c) {
        return c >= 'A' && c <= 'Z'
                ? c - 'A'
                : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52 : c == '-' ? 62 : 63;
    }

    /** The JSON of a canonical base64url part, or {@code null} if it is not JSON (or passes a parser bound). */
    private static JsonNode json(String part) {
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(part));
        } catch (IOException e) {
            return null;
        }
    }

    /** A fresh token with {@code iat} = now, as a consensus client would send. */
    public String token() {
        return JWT.create().withIssuedAt(Date.from(clock.instant())).sign(algorithm);
    }
}
