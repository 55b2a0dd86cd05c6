package io.hexstream.server.auth;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexFormatException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * The Engine API's shared 256-bit secret (execution-apis {@code src/engine/authentication.md}, "Key
 * distribution"): a file holding 32 bytes as hex, {@code 0x} optional.
 *
 * @param bytes the 32 secret bytes
 * @param path the file it was read from or written to
 */
public record JwtSecret(byte[] bytes, Path path) {
    public static final int LENGTH = 32;
    public static final String DEFAULT_FILE = "jwt.hex";

    /**
     * Reads the secret from {@code file}.
     *
     * @throws IllegalArgumentException if the file does not hold 32 hex-encoded bytes
     * @throws IOException if it cannot be read
     */
    public static JwtSecret read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        String hex = text.startsWith("0x") ? text : "0x" + text;
        try {
            return new JwtSecret(Hex.decode(hex, LENGTH), file);
        } catch (HexFormatException e) {
            throw new IllegalArgumentException("JWT secret " + file + " is not 32 hex-encoded bytes: "
                    + e.getMessage(), e);
        }
    }

    /** Generates a fresh secret and writes it, as {@code 0x}-prefixed hex, to {@code file}. */
    public static JwtSecret generate(Path file) throws IOException {
        byte[] secret = new byte[LENGTH];
        new SecureRandom().nextBytes(secret);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, Hex.encodeToString(secret, true) + "\n", StandardCharsets.US_ASCII);
        return new JwtSecret(secret, file);
    }
}
