package example;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The blobs of the example server's pool as its data dir holds them ({@code blobs/*.blob}, format {@code HXB3},
 * example-server/README.md "On disk"), read with the JDK alone: the independent source a test compares with what a
 * client read. Each blob is keyed by its versioned hash, computed here from its commitment (EIP-4844: {@code 0x01 ||
 * sha256(commitment)[1:]}).
 */
final class PoolFiles {
    static final int BLOB = 131_072;
    static final int COMMITMENT = 48;
    static final int PROOF = 48;
    static final int CELLS = 128;
    /** Cells 64 to 127 of the extended blob, 2,048 bytes each. */
    private static final int EXTENSION_CELLS = 64 * 2_048;

    private static final int HAS_BLOB_PROOF = 1;
    private static final int HAS_CELL_PROOFS = 2;
    private static final int HAS_EXTENSION_CELLS = 4;

    /** A pooled blob and its cell proofs ({@code null} where the file has none). */
    record PooledBlob(byte[] blob, List<byte[]> cellProofs) {}

    private PoolFiles() {}

    /** Every blob in {@code dataDir/blobs}, by versioned hash ({@code 0x}, lowercase). */
    static Map<String, PooledBlob> read(Path dataDir) throws IOException {
        Map<String, PooledBlob> pool = new HashMap<>();
        try (Stream<Path> files = Files.list(dataDir.resolve("blobs"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".blob")).toList()) {
                readFile(Files.readAllBytes(file), file, pool);
            }
        }
        return pool;
    }

    private static void readFile(byte[] bytes, Path file, Map<String, PooledBlob> pool) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if ((int) crc.getValue() != in.getInt(bytes.length - 4)) {
            throw new IllegalStateException(file + ": CRC32C mismatch");
        }
        byte[] magic = new byte[4];
        in.get(magic);
        if (!"HXB3".equals(new String(magic, StandardCharsets.US_ASCII))) {
            throw new IllegalStateException(file + ": not HXB3");
        }
        int origin = in.get();
        in.position(in.position() + (origin == 0 ? 0 : 32) + (origin == 2 ? 20 : 0));
        int count = in.getShort() & 0xffff;
        for (int i = 0; i < count; i++) {
            int flags = in.get();
            byte[] blob = take(in, BLOB);
            String hash = versionedHash(take(in, COMMITMENT));
            in.position(in.position() + ((flags & HAS_BLOB_PROOF) != 0 ? PROOF : 0));
            List<byte[]> cellProofs = null;
            if ((flags & HAS_CELL_PROOFS) != 0) {
                cellProofs = new ArrayList<>(CELLS);
                for (int j = 0; j < CELLS; j++) {
                    cellProofs.add(take(in, PROOF));
                }
            }
            in.position(in.position() + ((flags & HAS_EXTENSION_CELLS) != 0 ? EXTENSION_CELLS : 0));
            pool.put(hash, new PooledBlob(blob, cellProofs));
        }
        if (in.remaining() != 4) {
            throw new IllegalStateException(file + ": " + (in.remaining() - 4) + " bytes after the last blob");
        }
    }

    private static byte[] take(ByteBuffer in, int n) {
        byte[] bytes = new byte[n];
        in.get(bytes);
        return bytes;
    }

    private static String versionedHash(byte[] commitment) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(commitment);
            hash[0] = 0x01;
            return "0x" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
