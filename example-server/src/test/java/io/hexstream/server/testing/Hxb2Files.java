package io.hexstream.server.testing;

import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.PoolItem;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Store files in the format before extension cells, {@code HXB2}, written as the server wrote them then:
 * {@code "HXB2"}, the origin byte, the transaction hash (transactions only), the blob count (2 bytes), per blob the
 * flags (bit 0 blob proof, bit 1 cell proofs), blob, commitment, blob proof, cell proofs; last a CRC32C (4 bytes,
 * big-endian). The extension cells of the entries are not written.
 */
public final class Hxb2Files {
    private Hxb2Files() {}

    /** Writes {@code item} as {@code <dataDir>/blobs/<sequence>-<key>.blob}, {@code HXB2}; returns the file. */
    public static Path write(Path dataDir, int sequence, PoolItem item) {
        int size = 4 + 1 + (item.isTransaction() ? 32 : 0) + 2 + 4;
        for (BlobEntry entry : item.entries()) {
            size += 1
                    + entry.blob().length
                    + entry.commitment().length
                    + (entry.blobProof() != null ? entry.blobProof().length : 0)
                    + (entry.cellProofs() != null ? entry.cellProofs().length : 0);
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(new byte[] {'H', 'X', 'B', '2'});
        out.put((byte) (item.isTransaction() ? 1 : 0));
        if (item.isTransaction()) {
            out.put(item.transactionHash());
        }
        out.putShort((short) item.entries().size());
        for (BlobEntry entry : item.entries()) {
            out.put((byte) ((entry.blobProof() != null ? 1 : 0) | (entry.cellProofs() != null ? 2 : 0)));
            out.put(entry.blob()).put(entry.commitment());
            if (entry.blobProof() != null) {
                out.put(entry.blobProof());
            }
            if (entry.cellProofs() != null) {
                out.put(entry.cellProofs());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        try {
            Path blobs = Files.createDirectories(dataDir.resolve("blobs"));
            return Files.write(blobs.resolve(String.format("%012d-%s.blob", sequence, item.key())), out.array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The format a store file is in: its first four bytes, {@code HXB2} or {@code HXB3}. */
    public static String format(Path file) {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readNBytes(4), java.nio.charset.StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
