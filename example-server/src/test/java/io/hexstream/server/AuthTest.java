package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.engine.Fork;
import io.hexstream.server.testing.EngineServerFixture;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** JWT authentication (execution-apis authentication.md), every failure kind, on a server with a fixed clock. */
class AuthTest {
    private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);
    private static final Algorithm KEY = Algorithm.HMAC256(HexDecoder.decode(EngineServerFixture.SECRET));
    private static final String BODY = EngineServerFixture.request(1, "engine_exchangeCapabilities", "[[]]");
    private static EngineServerFixture server;

    @BeforeAll
    static void start() {
        server = EngineServerFixture.start(Fork.OSAKA, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static int status(String authorization) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(server.uri()).POST(HttpRequest.BodyPublishers.ofString(BODY));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return server.send(request.build()).statusCode();
    }

    /** The body of the answer to {@code authorization}, which must be a 401: the reason, one line. */
    private static String refusal(String authorization) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(server.uri()).POST(HttpRequest.BodyPublishers.ofString(BODY));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        var response = server.send(request.build());
        assertEquals(401, response.statusCode());
        assertEquals(
                "text/plain; charset=utf-8",
                response.headers().firstValue("content-type").orElseThrow());
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    /** A token signed with the server's secret over exactly this payload JSON. */
    private static String signed(String payloadJson) {
        String unsigned = base64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}") + "." + base64(payloadJson);
        byte[] signature = KEY.sign(
                unsigned.substring(0, unsigned.indexOf('.')).getBytes(StandardCharsets.UTF_8),
                unsigned.substring(unsigned.indexOf('.') + 1).getBytes(StandardCharsets.UTF_8));
        return "Bearer " + unsigned + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    }

    private static String issuedAt(long secondsFromNow) {
        return "Bearer "
                + JWT.create()
                        .withIssuedAt(Date.from(NOW.plusSeconds(secondsFromNow)))
                        .sign(KEY);
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFreshTokenIsAccepted() {
        assertEquals(200, status(issuedAt(0)));
        assertEquals(
                200,
                status("bearer "
                        + JWT.create()
                                .withIssuedAt(Date.from(NOW))
                                .withClaim("clv", "teku/1")
                                .withClaim("id", "cl-1")
                                .sign(KEY)
                                .toString()));
    }

    @Test
    void iatWithinSixtySecondsEitherWay() {
        assertEquals(200, status(issuedAt(-60)));
        assertEquals(200, status(issuedAt(60)));
        assertEquals(401, status(issuedAt(-61)));
        assertEquals(401, status(issuedAt(61)));
    }

    @Test
    void missingOrMalformedTokens() {
        assertEquals(401, status(null));
        assertEquals(401, status("Basic dXNlcjpwYXNz"));
        assertEquals(401, status("Bearer"));
        assertEquals(401, status("Bearer not.a.jwt"));
        assertEquals(401, status("Bearer " + base64("{\"alg\":\"HS256\"}")));
    }

    @Test
    void wrongKeyOrAlgorithm() {
        assertEquals(
                401,
                status("Bearer " + JWT.create().withIssuedAt(Date.from(NOW)).sign(Algorithm.HMAC256(new byte[32]))));
        assertEquals(
                401,
                status("Bearer "
                        + JWT.create()
                                .withIssuedAt(Date.from(NOW))
                                .sign(Algorithm.HMAC512(HexDecoder.decode(EngineServerFixture.SECRET)))));
        String none = base64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "."
                + base64("{\"iat\":" + NOW.getEpochSecond() + "}") + ".";
        assertEquals(401, status("Bearer " + none));
    }

    @Test
    void eachRefusalSaysWhy() {
        assertEquals("no Authorization header\n", refusal(null));
        assertEquals("Authorization is not a Bearer token\n", refusal("Basic dXNlcjpwYXNz"));
        assertEquals("iat is 61 s before now, at most 60 s either way\n", refusal(issuedAt(-61)));
        assertEquals("iat is 61 s after now, at most 60 s either way\n", refusal(issuedAt(61)));
        assertEquals(
                "wrong signature: the token is not signed with this server's secret\n",
                refusal("Bearer " + JWT.create().withIssuedAt(Date.from(NOW)).sign(Algorithm.HMAC256(new byte[32]))));
        assertEquals(
                "alg is HS512, only HS256 is accepted\n",
                refusal("Bearer "
                        + JWT.create()
                                .withIssuedAt(Date.from(NOW))
                                .sign(Algorithm.HMAC512(HexDecoder.decode(EngineServerFixture.SECRET)))));
        assertEquals(
                "alg is none, only HS256 is accepted\n",
                refusal("Bearer " + base64("{\"alg\":\"none\"}") + "."
                        + base64("{\"iat\":" + NOW.getEpochSecond() + "}") + "."));
        assertEquals("malformed token: 2 parts, a JWT has 3 separated by '.'\n", refusal("Bearer not.ajwt"));
    }

    /** Found in review: a claim of 2^63 − 1 threw past the check and the connection closed with no answer. */
    @Test
    void claimsOutOfRangeAreRefusedWithTheReason() {
        long now = NOW.getEpochSecond();
        for (String claim : new String[] {"iat", "exp", "nbf"}) {
            String iat = claim.equals("iat") ? "" : "\"iat\":" + now + ",";
            assertEquals(
                    claim + " 9223372036854775807 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":9223372036854775807}")));
            assertEquals(
                    claim + " 99999999999999999999999 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":99999999999999999999999}")));
            assertEquals(
                    claim + " -1 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":-1}")));
            assertEquals(
                    claim + " 1800000000.5 is not a whole number of seconds\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":1800000000.5}")));
            assertEquals(
                    claim + " is not a number\n", refusal(signed("{" + iat + "\"" + claim + "\":\"1800000000\"}")));
        }
        assertEquals("iat is missing\n", refusal(signed("{\"exp\":" + (now + 100) + "}")));
        assertEquals(
                "exp is 1 s before now: the token has expired\n",
                refusal(signed("{\"iat\":" + now + ",\"exp\":" + (now - 1) + "}")));
        assertEquals(
                "nbf is 5 s after now: the token is not valid yet\n",
                refusal(signed("{\"iat\":" + now + ",\"nbf\":" + (now + 5) + "}")));
        assertEquals(
                200,
                status(signed("{\"iat\":" + now + ",\"exp\":" + (now + 1) + ",\"nbf\":" + now
                        + ",\"id\":\"cl\",\"clv\":\"x\"}")));
    }

    @Test
    void iatMissingOrNotANumber() {
        assertEquals(401, status("Bearer " + JWT.create().withClaim("id", "x").sign(KEY)));
        assertEquals(
                401,
                status("Bearer " + JWT.create().withClaim("iat", "1800000000").sign(KEY)));
        assertEquals(
                401, status("Bearer " + JWT.create().withClaim("iat", "soon").sign(KEY)));
    }

    /** A token signed with the server's secret over exactly these base64url parts, as given. */
    private static String signedParts(String header, String payload) {
        byte[] signature =
                KEY.sign(header.getBytes(StandardCharsets.US_ASCII), payload.getBytes(StandardCharsets.US_ASCII));
        return "Bearer " + header + "." + payload + "."
                + Base64.getUrlEncoder().withoutPadding().encodeToString(signature);
    }

    /** {@code part} with its last character's lowest bit set: the same bytes to a lenient decoder, if unused. */
    private static String strayBit(String part) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int last = alphabet.indexOf(part.charAt(part.length() - 1));
        return part.substring(0, part.length() - 1) + alphabet.charAt(last | 1);
    }

    /** Found by an audit: an iat of 1e400 was read as a double, Infinity, and threw past the check. */
    @Test
    void numbersBeyondAnyRangeAreRefusedWithTheReasonNeverAnException() {
        long now = NOW.getEpochSecond();
        for (String claim : new String[] {"iat", "exp", "nbf"}) {
            String iat = claim.equals("iat") ? "" : "\"iat\":" + now + ",";
            assertEquals(
                    claim + " 1E+400 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":1e400}")));
            assertEquals(
                    claim + " -1E+400 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":-1e400}")));
            assertEquals(
                    claim + " 1E+999999999 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":1e999999999}")));
            assertEquals(
                    claim + " 1E-400 is not a whole number of seconds\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":1e-400}")));
            assertEquals(
                    claim + " -0.5 is not a whole number of seconds\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":-0.5}")));
            assertEquals(
                    claim + " 253402300800.0 is out of range (0 to 253402300799 s)\n",
                    refusal(signed("{" + iat + "\"" + claim + "\":253402300800.0}")));
        }
        assertEquals(
                "malformed token: the payload is not base64url-encoded JSON\n",
                refusal(signed("{\"iat\":1" + "0".repeat(1000) + "}")),
                "over Jackson's 1,000-digit bound");
        assertEquals(200, status(signed("{\"iat\":" + now + ".000}")), "a whole number, however written");
        assertEquals(200, status(signed("{\"iat\":" + (now / 100) + "e2}")));
    }

    /** Found by an audit: padding and stray bits were taken, so one token had many spellings. */
    @Test
    void everyPartIsCanonicalBase64Url() {
        String header = base64("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        String payload = base64("{\"iat\":" + NOW.getEpochSecond() + "}");
        String good = signedParts(header, payload);
        assertEquals(200, status(good));
        String[] parts = good.substring(7).split("\\.");
        assertEquals(43, parts[2].length(), "32 bytes: 2 bits unused in the last character");
        assertEquals(
                "malformed token: the signature has non-zero bits after its last byte, not canonical base64url"
                        + " (RFC 7515, section 2)\n",
                refusal("Bearer " + parts[0] + "." + parts[1] + "." + strayBit(parts[2])));
        assertEquals(
                "malformed token: the signature has padding '=', which base64url in a JWT omits (RFC 7515, section"
                        + " 2)\n",
                refusal(good + "="));
        assertEquals(
                "malformed token: the header has padding '=', which base64url in a JWT omits (RFC 7515, section 2)\n",
                refusal(signedParts(
                        Base64.getUrlEncoder()
                                .encodeToString( // 28 bytes: "==" at the end
                                        "{\"alg\":\"HS256\", \"typ\":\"JWT\"}".getBytes(StandardCharsets.US_ASCII)),
                        payload)));
        String oddPayload = base64("{\"iat\":" + NOW.getEpochSecond() + ",\"x\":12}");
        assertTrue(oddPayload.length() % 4 != 0, oddPayload);
        assertEquals(200, status(signedParts(header, oddPayload)));
        assertEquals(
                "malformed token: the payload has non-zero bits after its last byte, not canonical base64url"
                        + " (RFC 7515, section 2)\n",
                refusal(signedParts(header, strayBit(oddPayload))));
        assertEquals(
                "malformed token: the header has a character outside the base64url alphabet at 2 (RFC 7515, section"
                        + " 2)\n",
                refusal(signedParts(header.substring(0, 2) + "+" + header.substring(3), payload)));
        assertEquals(
                "malformed token: the payload is 5 characters long, which no base64url encoding is\n",
                refusal(signedParts(header, "eyJhY")));
    }
}
