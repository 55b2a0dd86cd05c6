package io.hexstream.client;

import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.codec.HexFormatException;
import io.netty.buffer.ByteBuf;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A blob versioned hash (EIP-4844): 32 bytes, {@code 0x01 ‖ sha256(commitment)[1..32]} for KZG commitments. Any 32
 * bytes are a valid key for a lookup; an unknown one is simply missing.
 */
public final class VersionedHash {
    /** {@code VERSIONED_HASH_VERSION_KZG}. */
    public static final byte VERSION_KZG = 0x01;

    private final byte[] bytes;
    private final int hash;

    private VersionedHash(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** A hash from 32 bytes (copied). */
    public static VersionedHash wrap(byte[] bytes) {
        if (bytes.length != BlobSizes.VERSIONED_HASH_SIZE) {
            throw new IllegalArgumentException("a versioned hash is 32 bytes, got " + bytes.length);
        }
        return new VersionedHash(bytes.clone());
    }

    /** A hash from the 32 bytes of {@code buf} at {@code index} (its indices unchanged), read straight into the key. */
    public static VersionedHash read(ByteBuf buf, int index) {
        byte[] bytes = new byte[BlobSizes.VERSIONED_HASH_SIZE];
        buf.getBytes(index, bytes);
        return new VersionedHash(bytes);
    }

    /**
     * A hash from its JSON-RPC text, {@code 0x} and 64 hex digits, decoded straight into the key (no further copy).
     *
     * @throws HexFormatException if {@code text} is not {@code DATA} of 32 bytes (execution-apis {@code common.md},
     *     "Encoding")
     */
    public static VersionedHash decode(CharSequence text) {
        return new VersionedHash(HexDecoder.decode(text, BlobSizes.VERSIONED_HASH_SIZE));
    }

    /**
     * A hash from its JSON-RPC text in {@code text[offset, offset + length)} (e.g. a JSON parser's buffer), decoded
     * straight into the key, no {@code String} made; as {@link #decode(CharSequence)}, with its errors.
     *
     * @throws HexFormatException if the text is not {@code DATA} of 32 bytes
     */
    public static VersionedHash decode(char[] text, int offset, int length) {
        int size = HexDecoder.checkedByteCount(
                length,
                length > 0 ? text[offset] : 0,
                length > 1 ? text[offset + 1] : 0,
                BlobSizes.VERSIONED_HASH_SIZE);
        byte[] bytes = new byte[size];
        HexDecoder.decodeDigits(text, offset + 2, length - 2, bytes, 0, 2);
        return new VersionedHash(bytes);
    }

    /** The versioned hash of a 48-byte KZG commitment. */
    public static VersionedHash ofCommitment(byte[] commitment) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(commitment);
            digest[0] = VERSION_KZG;
            return new VersionedHash(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The 32 bytes (a copy). */
    public byte[] toBytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionedHash other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** {@code 0x}-prefixed hex, as in JSON-RPC. */
    @Override
    public String toString() {
        return Hex.encodeToString(bytes, true);
    }
}
