package io.hexstream.server.auth;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;

/**
 * The Engine API's shared 256-bit secret (execution-apis {@code src/engine/authentication.md}, "Key distribution"): a
 * file holding 32 bytes as hex, {@code 0x} optional.
 *
 * @param bytes the 32 secret bytes
 * @param path the file it was read from or written to
 */
public record JwtSecret(byte[] bytes, Path path) {
    public static final int LENGTH = 32;
    public static final String DEFAULT_FILE = "jwt.hex";
    private static final String MALFORMED = "is not 32 hex-encoded bytes (64 hex digits, 0x optional)";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    /**
     * Reads the secret from {@code file}.
     *
     * @throws IllegalArgumentException if the file does not hold 32 hex-encoded bytes; the message says how, e.g.
     *     {@code is not 32 hex-encoded bytes (64 hex digits, 0x optional): got 63 digits}
     * @throws IOException if it cannot be read
     */
    public static JwtSecret read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).strip();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(MALFORMED + ": not ASCII text", e);
        }
        String digits = text.startsWith("0x") ? text.substring(2) : text;
        if (digits.length() != 2 * LENGTH) {
            throw new IllegalArgumentException(MALFORMED + ": got " + digits.length() + " digits");
        }
        try {
            return new JwtSecret(HexDecoder.decode("0x" + digits, LENGTH), file);
        } catch (HexFormatException e) {
            throw new IllegalArgumentException(MALFORMED + ": " + e.getMessage(), e);
        }
    }

    /**
     * Generates a fresh secret and writes it, as {@code 0x}-prefixed hex, to a new {@code file}, readable and writable
     * by its owner only (mode 600, where the file system has POSIX permissions).
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code file} exists
     */
    public static JwtSecret generate(Path file) throws IOException {
        byte[] secret = new byte[LENGTH];
        new SecureRandom().nextBytes(secret);
        Files.createDirectories(file.toAbsolutePath().getParent());
        FileAttribute<?>[] ownerOnly =
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                        : new FileAttribute<?>[0];
        Files.createFile(file, ownerOnly);
        Files.writeString(file, Hex.encodeToString(secret, true) + "\n", StandardCharsets.US_ASCII);
        return new JwtSecret(secret, file);
    }
}
