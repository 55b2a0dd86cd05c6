package io.hexstream.client;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.Base64;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Mints the token a consensus client sends with each Engine API request (execution-apis
 * {@code src/engine/authentication.md}): a JWT signed HS256 with the shared secret, its header
 * {@code {"alg":"HS256","typ":"JWT"}} and its payload {@code {"iat":SECONDS}}, seconds since the epoch now; each part
 * base64url without padding (RFC 7515 §2). Thread-safe: each {@link #get()} signs with a {@link Mac} of its own.
 */
public final class JwtSigner implements Supplier<String> {
    /** The secret's size the spec fixes: 256 bits. */
    public static final int SECRET_SIZE = 32;

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final String HEADER =
            BASE64URL.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.US_ASCII));

    private final SecretKeySpec key;
    private final Clock clock;

    /**
     * A signer with {@code secret}, {@code iat} read from {@code clock}.
     *
     * @param secret the {@value #SECRET_SIZE}-byte shared secret (copied)
     * @throws IllegalArgumentException if {@code secret} is not {@value #SECRET_SIZE} bytes
     */
    public JwtSigner(byte[] secret, Clock clock) {
        if (secret.length != SECRET_SIZE) {
            throw new IllegalArgumentException("a JWT secret is " + SECRET_SIZE + " bytes, not " + secret.length);
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
        this.clock = clock;
    }

    /** A signer with {@code secret} ({@link #JwtSigner(byte[], Clock)}) and the system clock. */
    public JwtSigner(byte[] secret) {
        this(secret, Clock.systemUTC());
    }

    /** A fresh token, {@code iat} now: {@code HEADER.PAYLOAD.SIGNATURE}, ASCII. */
    @Override
    public String get() {
        long iat = Math.floorDiv(clock.millis(), 1000L);
        String signed =
                HEADER + "." + BASE64URL.encodeToString(("{\"iat\":" + iat + "}").getBytes(StandardCharsets.US_ASCII));
        byte[] signature;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            signature = mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is a JDK algorithm every JDK has", e);
        }
        return signed + "." + BASE64URL.encodeToString(signature);
    }
}
