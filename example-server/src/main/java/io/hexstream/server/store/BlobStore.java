package io.hexstream.server.store;

import io.hexstream.server.pool.BlobEntry;
import io.hexstream.server.pool.VersionedHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool on disk: one file per blob in {@code <data-dir>/blobs/}, named
 * {@code <sequence>-<versioned hash>.blob} so that a directory listing gives insertion order.
 *
 * <p>File layout: {@code "HXB1"}, one origin byte ({@link Origin}), one flags byte (bit 0: blob proof
 * present, bit 1: cell proofs present), the blob (131,072 bytes), the commitment (48), the blob proof
 * (48, if present), the cell proofs (6,144, if present), then a CRC32C of everything before it (4
 * bytes, big-endian). A file is written to a temporary name, forced to disk, then renamed into place,
 * so a crash leaves either the whole file or none; a file that fails its checksum is skipped with a
 * warning and never served.
 */
public final class BlobStore {
    private static final Logger LOG = LoggerFactory.getLogger(BlobStore.class);
    private static final byte[] MAGIC = {'H', 'X', 'B', '1'};
    private static final String SUFFIX = ".blob";

    /** Where a stored blob came from. */
    public enum Origin {
        GENERATED,
        TRANSACTION
    }

    /** A blob read back from disk. */
    public record Stored(Origin origin, BlobEntry entry) {}

    private final Path directory;
    private final AtomicLong sequence = new AtomicLong();

    public BlobStore(Path dataDir) throws IOException {
        this.directory = Files.createDirectories(dataDir.resolve("blobs"));
    }

    /** Every intact stored blob, oldest first; corrupt or torn files are logged and skipped. */
    public List<Stored> loadAll() throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
        List<Stored> stored = new ArrayList<>(files.size());
        for (Path file : files) {
            String name = file.getFileName().toString();
            sequence.accumulateAndGet(Long.parseLong(name.substring(0, name.indexOf('-'))), Math::max);
            try {
                stored.add(decode(Files.readAllBytes(file)));
            } catch (IllegalArgumentException e) {
                LOG.warn("skipping corrupt blob file {}: {}", file, e.getMessage());
            }
        }
        return stored;
    }

    /** Writes {@code entry} durably (fsync before return). */
    public void save(Origin origin, BlobEntry entry) throws IOException {
        String name = String.format("%012d-%s%s", sequence.incrementAndGet(), entry.versionedHash(), SUFFIX);
        Path temporary = directory.resolve(name + ".tmp");
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = ByteBuffer.wrap(encode(origin, entry));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        Files.move(temporary, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        forceDirectory();
    }

    /** Removes the file of the blob with {@code hash}, if any. */
    public void delete(VersionedHash hash) {
        String suffix = "-" + hash + SUFFIX;
        try (Stream<Path> listing = Files.list(directory)) {
            for (Path file : (Iterable<Path>) listing.filter(p -> p.getFileName().toString().endsWith(suffix))::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (NoSuchFileException e) {
            // already gone
        } catch (IOException e) {
            LOG.warn("could not delete the file of evicted blob {}: {}", hash, e.getMessage());
        }
    }

    public Path directory() {
        return directory;
    }

    static byte[] encode(Origin origin, BlobEntry entry) {
        int flags = (entry.blobProof() != null ? 1 : 0) | (entry.cellProofs() != null ? 2 : 0);
        int size = MAGIC.length + 2 + BlobEntry.BLOB_SIZE + BlobEntry.COMMITMENT_SIZE
                + (entry.blobProof() != null ? BlobEntry.PROOF_SIZE : 0)
                + (entry.cellProofs() != null ? BlobEntry.CELL_PROOFS_SIZE : 0) + 4;
        ByteBuffer out = ByteBuffer.allocate(size).put(MAGIC).put((byte) origin.ordinal()).put((byte) flags)
                .put(entry.blob()).put(entry.commitment());
        if (entry.blobProof() != null) {
            out.put(entry.blobProof());
        }
        if (entry.cellProofs() != null) {
            out.put(entry.cellProofs());
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        return out.putInt((int) crc.getValue()).array();
    }

    static Stored decode(byte[] file) {
        if (file.length < MAGIC.length + 2 + 4) {
            throw new IllegalArgumentException("truncated: " + file.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(file, file.length - 4, 4).getInt()) {
            throw new IllegalArgumentException("checksum mismatch");
        }
        ByteBuffer in = ByteBuffer.wrap(file, 0, file.length - 4);
        for (byte b : MAGIC) {
            if (in.get() != b) {
                throw new IllegalArgumentException("not a hexstream blob file");
            }
        }
        int originIndex = in.get();
        int flags = in.get();
        if (originIndex < 0 || originIndex >= Origin.values().length || (flags & ~3) != 0) {
            throw new IllegalArgumentException("unknown origin " + originIndex + " or flags " + flags);
        }
        try {
            byte[] blob = take(in, BlobEntry.BLOB_SIZE);
            byte[] commitment = take(in, BlobEntry.COMMITMENT_SIZE);
            byte[] blobProof = (flags & 1) != 0 ? take(in, BlobEntry.PROOF_SIZE) : null;
            byte[] cellProofs = (flags & 2) != 0 ? take(in, BlobEntry.CELL_PROOFS_SIZE) : null;
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " unexpected trailing bytes");
            }
            return new Stored(Origin.values()[originIndex], new BlobEntry(blob, commitment, blobProof, cellProofs));
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated: " + file.length + " bytes");
        }
    }

    private static byte[] take(ByteBuffer in, int n) {
        byte[] bytes = new byte[n];
        in.get(bytes);
        return bytes;
    }

    private void forceDirectory() {
        // Makes the rename durable on Linux; some platforms cannot open a directory, which is fine.
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            LOG.debug("directory fsync not supported: {}", e.getMessage());
        }
    }
}
