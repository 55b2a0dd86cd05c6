package io.hexstream.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.SignatureVerificationException;
import com.auth0.jwt.interfaces.DecodedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** JwtSigner's tokens as java-jwt, the library the server verifies them with, reads them. */
class JwtSignerTest {
    private static final byte[] SECRET = secret(7);
    private static final Clock AT = Clock.fixed(Instant.ofEpochSecond(1_764_892_800L, 999_000_000L), ZoneOffset.UTC);

    @Test
    void tokenVerifiesWithTheSecretAndCarriesIatInWholeSeconds() {
        DecodedJWT token = JWT.require(Algorithm.HMAC256(SECRET)).build().verify(new JwtSigner(SECRET, AT).get());

        assertEquals("HS256", token.getAlgorithm());
        assertEquals("JWT", token.getType());
        assertEquals(Instant.ofEpochSecond(1_764_892_800L), token.getIssuedAtAsInstant());
        assertEquals(Set.of("iat"), token.getClaims().keySet());
        assertEquals(
                "{\"alg\":\"HS256\",\"typ\":\"JWT\"}",
                new String(Base64.getUrlDecoder().decode(token.getHeader()), StandardCharsets.US_ASCII));
        assertEquals(
                "{\"iat\":1764892800}",
                new String(Base64.getUrlDecoder().decode(token.getPayload()), StandardCharsets.US_ASCII));
    }

    @Test
    void tokenDoesNotVerifyWithAnotherSecret() {
        String token = new JwtSigner(SECRET, AT).get();

        assertThrows(
                SignatureVerificationException.class,
                () -> JWT.require(Algorithm.HMAC256(secret(8))).build().verify(token));
    }

    @Test
    void secretOfAnotherSizeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new JwtSigner(new byte[31]));

        assertEquals("a JWT secret is 32 bytes, not 31", e.getMessage());
    }

    private static byte[] secret(int seed) {
        byte[] secret = new byte[JwtSigner.SECRET_SIZE];
        IntStream.range(0, secret.length).forEach(i -> secret[i] = (byte) (seed * 31 + i));
        return secret;
    }
}
