package io.hexstream.server.pool;

import io.hexstream.client.BlobSizes;
import io.hexstream.codec.Hex;
import io.hexstream.codec.HexDecoder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.blob.Origin;
import io.hexstream.server.blob.PoolItem;
import io.hexstream.server.metrics.ServerMetrics;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool on disk: one file per {@link PoolItem} in {@code <data-dir>/blobs/}, named {@code <sequence>-<key>.blob}
 * (the key is the transaction hash, or the generated blob's versioned hash) so that a directory listing gives insertion
 * order. Only {@link DurableBlobPool} uses it: it remembers each item's file, so that evicting deletes that file
 * without listing the directory.
 *
 * <p>File layout ({@code HXB3}): {@code "HXB3"}, an origin byte (0 generated, 1 transaction through the Engine API
 * port, 2 transaction through a port without JWT), the transaction hash (32 bytes, transactions only), the sender (20
 * bytes, origin 2 only), the blob count (2 bytes, big-endian), then per blob a flags byte (bit 0: blob proof present,
 * bit 1: cell proofs present, bit 2: extension cells present), the blob (131,072 bytes), the commitment (48), the blob
 * proof (48, if present), the cell proofs (6,144, if present) and the extension cells (cells 64 to 127, 131,072, if
 * present); last a CRC32C of everything before it (4 bytes, big-endian). {@code HXB2} files, the same without bit 2 and
 * the extension cells, still load: their entries come without extension cells, which {@code CellBackfill} adds,
 * rewriting the file as {@code HXB3} ({@link #rewrite}). A file is written to a temporary name, forced to disk, then
 * renamed into place (over the old file, for a rewrite) and the directory forced, each step through {@link StoreFiles},
 * so a crash leaves either the whole new file or the old one (a leftover temporary file is removed at the next start);
 * a write returns only once all four steps succeeded. A file that fails its checksum is skipped with a warning and
 * never served.
 */
final class BlobStore {
    private static final Logger LOG = LoggerFactory.getLogger(BlobStore.class);
    /** The format written: with extension cells. */
    private static final byte[] MAGIC = {'H', 'X', 'B', '3'};
    /** The format before extension cells, still read. */
    private static final byte[] MAGIC_HXB2 = {'H', 'X', 'B', '2'};

    private static final String SUFFIX = ".blob";
    private static final String TEMPORARY = ".tmp";
    private static final int GENERATED = 0;
    private static final int TRANSACTION = 1;
    private static final int UNAUTHENTICATED_TRANSACTION = 2;
    private static final int SENDER_SIZE = 20;
    private static final int BLOB_PROOF = 1;
    private static final int CELL_PROOFS = 2;
    private static final int EXTENSION_CELLS = 4;

    private final Path directory;
    private final AtomicLong sequence = new AtomicLong();
    private final ServerMetrics metrics;
    private final StoreFiles fileSystem;

    /** An item read back, and the file it is in. */
    record Stored(PoolItem item, Path file) {}

    BlobStore(Path dataDir, ServerMetrics metrics) throws IOException {
        this(dataDir, metrics, StoreFiles.SYSTEM);
    }

    /** The store in {@code <dataDir>/blobs/} (created if need be), changing it through {@code files}. */
    BlobStore(Path dataDir, ServerMetrics metrics, StoreFiles files) throws IOException {
        this.metrics = metrics;
        this.fileSystem = files;
        this.directory = Files.createDirectories(dataDir.resolve(DurableBlobPool.DIRECTORY));
    }

    /**
     * Every intact stored item, oldest first. Corrupt or torn files and files not named by this store are logged and
     * skipped; unfinished writes (temporary files) are removed.
     */
    List<Stored> loadAll() throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.sorted().toList();
        }
        List<Stored> loaded = new ArrayList<>(files.size());
        for (Path file : files) {
            String name = file.getFileName().toString();
            if (name.endsWith(TEMPORARY)) {
                LOG.warn("removing {}, a write that a crash interrupted", file);
                fileSystem.delete(file);
                continue;
            }
            try {
                if (!name.endsWith(SUFFIX) || name.indexOf('-') < 1) {
                    throw new IllegalArgumentException("not named <sequence>-<key>" + SUFFIX);
                }
                sequence.accumulateAndGet(Long.parseLong(name.substring(0, name.indexOf('-'))), Math::max);
                loaded.add(new Stored(decode(Files.readAllBytes(file)), file));
            } catch (IllegalArgumentException e) { // NumberFormatException included
                LOG.warn("skipping corrupt pool file {}: {}", file, e.getMessage());
            }
        }
        return loaded;
    }

    /**
     * Writes {@code item} durably: when this returns, the file and its name are on disk (fsync). Returns the file.
     *
     * @throws IOException if a step failed; then no file of it is left (removed, if it was renamed into place before
     *     its directory could not be forced)
     */
    Path save(PoolItem item) throws IOException {
        Path file = directory.resolve(String.format("%012d-%s%s", sequence.incrementAndGet(), item.key(), SUFFIX));
        writeDurably(file, encode(item), true);
        return file;
    }

    /**
     * Replaces {@code file} (one {@link #save} returned or {@link #loadAll} listed) with {@code item} in the current
     * format, durably and atomically: a crash leaves the old file or the new one, whole.
     *
     * @throws IOException if a step failed; then {@code file} is the old file, or the new one if only the directory
     *     could not be forced (both whole)
     */
    void rewrite(Path file, PoolItem item) throws IOException {
        writeDurably(file, encode(item), false);
    }

    /**
     * {@code bytes} into {@code file}: a temporary file, fsync, an atomic rename over {@code file}, fsync of the
     * directory. If the directory cannot be forced, the rename may not survive a crash: the write fails, and
     * {@code file} is removed if {@code removeIfNotDurable} (a new file nobody was told of).
     */
    private void writeDurably(Path file, byte[] bytes, boolean removeIfNotDurable) throws IOException {
        Path temporary = file.resolveSibling(file.getFileName() + TEMPORARY);
        try {
            fileSystem.write(temporary, bytes);
            long started = System.nanoTime();
            fileSystem.force(temporary);
            metrics.fsynced(System.nanoTime() - started);
            fileSystem.rename(temporary, file);
        } catch (IOException | RuntimeException e) {
            deleteQuietly(temporary, e);
            throw e;
        }
        try {
            long started = System.nanoTime();
            fileSystem.forceDirectory(directory);
            metrics.fsynced(System.nanoTime() - started);
        } catch (IOException | RuntimeException e) {
            if (removeIfNotDurable) {
                deleteQuietly(file, e);
            }
            throw new IOException(
                    "fsync of the directory " + directory + " failed, so " + file.getFileName()
                            + " might not survive a crash: " + e.getMessage(),
                    e);
        }
    }

    private void deleteQuietly(Path file, Exception cause) {
        try {
            fileSystem.delete(file);
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** Removes {@code file} (one {@link #save} returned or {@link #loadAll} listed), if it is still there. */
    void delete(Path file) {
        try {
            fileSystem.delete(file);
        } catch (IOException e) {
            LOG.warn("could not delete the evicted pool file {}: {}", file, e.getMessage());
        }
    }

    Path directory() {
        return directory;
    }

    static byte[] encode(PoolItem item) {
        List<BlobEntry> entries = item.entries();
        if (entries.size() > 0xFFFF) {
            throw new IllegalArgumentException("at most 65,535 blobs in a file, got " + entries.size());
        }
        int size = MAGIC.length
                + 1
                + (item.isTransaction() ? BlobSizes.TRANSACTION_HASH_SIZE : 0)
                + (item.sender() != null ? SENDER_SIZE : 0)
                + 2
                + 4;
        for (BlobEntry entry : entries) {
            size += 1
                    + BlobSizes.BLOB_SIZE
                    + BlobSizes.COMMITMENT_SIZE
                    + (entry.blobProof() != null ? BlobSizes.PROOF_SIZE : 0)
                    + (entry.cellProofs() != null ? BlobSizes.CELL_PROOFS_SIZE : 0)
                    + (entry.extensionCells() != null ? BlobSizes.EXTENSION_CELLS_SIZE : 0);
        }
        ByteBuffer out = ByteBuffer.allocate(size).put(MAGIC);
        if (item.origin() == Origin.UNAUTHENTICATED) {
            out.put((byte) UNAUTHENTICATED_TRANSACTION)
                    .put(item.transactionHash())
                    .put(HexDecoder.decode(item.sender()));
        } else if (item.isTransaction()) {
            out.put((byte) TRANSACTION).put(item.transactionHash());
        } else {
            out.put((byte) GENERATED);
        }
        out.putShort((short) entries.size());
        for (BlobEntry entry : entries) {
            int flags = (entry.blobProof() != null ? BLOB_PROOF : 0)
                    | (entry.cellProofs() != null ? CELL_PROOFS : 0)
                    | (entry.extensionCells() != null ? EXTENSION_CELLS : 0);
            out.put((byte) flags).put(entry.blob()).put(entry.commitment());
            if (entry.blobProof() != null) {
                out.put(entry.blobProof());
            }
            if (entry.cellProofs() != null) {
                out.put(entry.cellProofs());
            }
            if (entry.extensionCells() != null) {
                out.put(entry.extensionCells());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        return out.putInt((int) crc.getValue()).array();
    }

    /**
     * The item in {@code file} ({@code HXB3}, or {@code HXB2}: then without extension cells), or
     * {@link IllegalArgumentException} saying what is wrong with it.
     */
    static PoolItem decode(byte[] file) {
        if (file.length < MAGIC.length + 1 + 2 + 4) {
            throw new IllegalArgumentException("truncated: " + file.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        if ((int) crc.getValue() != ByteBuffer.wrap(file, file.length - 4, 4).getInt()) {
            throw new IllegalArgumentException("checksum mismatch");
        }
        ByteBuffer in = ByteBuffer.wrap(file, 0, file.length - 4);
        byte[] magic = take(in, MAGIC.length);
        int known;
        if (Arrays.equals(magic, MAGIC)) {
            known = BLOB_PROOF | CELL_PROOFS | EXTENSION_CELLS;
        } else if (Arrays.equals(magic, MAGIC_HXB2)) {
            known = BLOB_PROOF | CELL_PROOFS;
        } else {
            throw new IllegalArgumentException("not a hexstream pool file");
        }
        try {
            int origin = in.get();
            if (origin != GENERATED && origin != TRANSACTION && origin != UNAUTHENTICATED_TRANSACTION) {
                throw new IllegalArgumentException("unknown origin " + origin);
            }
            byte[] transactionHash = origin != GENERATED ? take(in, BlobSizes.TRANSACTION_HASH_SIZE) : null;
            String sender =
                    origin == UNAUTHENTICATED_TRANSACTION ? Hex.encodeToString(take(in, SENDER_SIZE), true) : null;
            int count = Short.toUnsignedInt(in.getShort());
            List<BlobEntry> entries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int flags = in.get();
                if ((flags & ~known) != 0) {
                    throw new IllegalArgumentException("unknown flags " + flags + " of blob " + i);
                }
                byte[] blob = take(in, BlobSizes.BLOB_SIZE);
                byte[] commitment = take(in, BlobSizes.COMMITMENT_SIZE);
                byte[] blobProof = (flags & BLOB_PROOF) != 0 ? take(in, BlobSizes.PROOF_SIZE) : null;
                byte[] cellProofs = (flags & CELL_PROOFS) != 0 ? take(in, BlobSizes.CELL_PROOFS_SIZE) : null;
                byte[] extensionCells =
                        (flags & EXTENSION_CELLS) != 0 ? take(in, BlobSizes.EXTENSION_CELLS_SIZE) : null;
                entries.add(new BlobEntry(blob, commitment, blobProof, cellProofs, extensionCells));
            }
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " unexpected trailing bytes");
            }
            return new PoolItem(
                    transactionHash,
                    entries,
                    origin == UNAUTHENTICATED_TRANSACTION ? Origin.UNAUTHENTICATED : Origin.AUTHENTICATED,
                    sender);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("truncated: " + file.length + " bytes");
        }
    }

    private static byte[] take(ByteBuffer in, int n) {
        byte[] bytes = new byte[n];
        in.get(bytes);
        return bytes;
    }
}
