package io.hexstream.server.pool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file operations by which the pool's store makes an item durable and removes it: the one seam between
 * {@code BlobStore} and the file system for everything it changes on disk (reads go straight to {@link Files}).
 * {@code BlobStore} writes an item as {@link #write} to a temporary name, {@link #force}, {@link #rename} into place,
 * {@link #forceDirectory}: only then is it acknowledged. {@link #SYSTEM} does each with one system call or so; tests
 * put a recording or failing one in its place. Implementations are thread-safe.
 */
public interface StoreFiles {
    /** The platform's own: {@code FileChannel} and {@code Files}. */
    StoreFiles SYSTEM = new SystemFiles();

    /** Creates {@code file} (or truncates it) and writes {@code bytes} into it, not yet durably. */
    void write(Path file, byte[] bytes) throws IOException;

    /** Forces {@code file}'s content and metadata to the device ({@code fsync}). */
    void force(Path file) throws IOException;

    /** Renames {@code from} to {@code to} atomically, over {@code to} if it exists ({@code rename(2)}). */
    void rename(Path from, Path to) throws IOException;

    /** Forces {@code directory}'s entries to the device ({@code fsync} of it): a rename in it survives a crash. */
    void forceDirectory(Path directory) throws IOException;

    /** Removes {@code file} if it exists. */
    void delete(Path file) throws IOException;

    /** {@link #SYSTEM}. */
    final class SystemFiles implements StoreFiles {
        /**
         * Whether a directory can be opened to be forced: on POSIX systems; Windows cannot open one, and NTFS journals
         * its renames.
         */
        private static final boolean DIRECTORIES_OPEN =
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

        private SystemFiles() {}

        @Override
        public void write(Path file, byte[] bytes) throws IOException {
            try (FileChannel channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        }

        @Override
        public void force(Path file) throws IOException {
            // fsync through any descriptor of the file flushes all of it (POSIX fsync(2))
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        public void forceDirectory(Path directory) throws IOException {
            if (DIRECTORIES_OPEN) {
                try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                    channel.force(true);
                }
            }
        }

        @Override
        public void delete(Path file) throws IOException {
            Files.deleteIfExists(file);
        }
    }
}
