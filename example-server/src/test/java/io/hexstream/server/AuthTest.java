package io.hexstream.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import io.hexstream.codec.Hex;
import io.hexstream.server.rpc.Fork;
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
    private static final Algorithm KEY = Algorithm.HMAC256(Hex.decode(EngineServerFixture.SECRET));
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
        HttpRequest.Builder request = HttpRequest.newBuilder(server.uri()).POST(HttpRequest.BodyPublishers.ofString(BODY));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return server.send(request.build()).statusCode();
    }

    private static String issuedAt(long secondsFromNow) {
        return "Bearer " + JWT.create().withIssuedAt(Date.from(NOW.plusSeconds(secondsFromNow))).sign(KEY);
    }

    private static String base64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFreshTokenIsAccepted() {
        assertEquals(200, status(issuedAt(0)));
        assertEquals(200, status("bearer " + JWT.create().withIssuedAt(Date.from(NOW)).withClaim("clv", "teku/1")
                .withClaim("id", "cl-1").sign(KEY).toString()));
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
        assertEquals(401, status("Bearer " + JWT.create().withIssuedAt(Date.from(NOW))
                .sign(Algorithm.HMAC256(new byte[32]))));
        assertEquals(401, status("Bearer " + JWT.create().withIssuedAt(Date.from(NOW))
                .sign(Algorithm.HMAC512(Hex.decode(EngineServerFixture.SECRET)))));
        String none = base64("{\"alg\":\"none\",\"typ\":\"JWT\"}") + "." + base64("{\"iat\":" + NOW.getEpochSecond() + "}") + ".";
        assertEquals(401, status("Bearer " + none));
    }

    @Test
    void iatMissingOrNotANumber() {
        assertEquals(401, status("Bearer " + JWT.create().withClaim("id", "x").sign(KEY)));
        assertEquals(401, status("Bearer " + JWT.create().withClaim("iat", "1800000000").sign(KEY)));
        assertEquals(401, status("Bearer " + JWT.create().withClaim("iat", "soon").sign(KEY)));
    }
}
