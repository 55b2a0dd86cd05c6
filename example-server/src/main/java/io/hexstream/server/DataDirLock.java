package io.hexstream.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a second server off a data dir in use: an exclusive lock on {@code DATA_DIR/lock}
 * ({@link FileChannel#tryLock()}, released by {@link #close()} or when the process ends, however it ends), holding the
 * owner's process id for the refusal message. The file itself stays.
 */
final class DataDirLock implements AutoCloseable {
    static final String FILE = "lock";

    private final FileChannel channel;

    private DataDirLock(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Creates {@code dataDir} if need be and locks it.
     *
     * @throws StartupException {@code --data-dir DIR: not a directory}, {@code not writable}, or {@code in use by
     *     another server (pid N)}
     */
    static DataDirLock acquire(Path dataDir) throws StartupException {
        String option = "--data-dir " + dataDir + ": ";
        if (Files.exists(dataDir) && !Files.isDirectory(dataDir)) {
            throw new StartupException(option + "not a directory");
        }
        Path file = dataDir.resolve(FILE);
        FileChannel channel;
        try {
            Files.createDirectories(dataDir);
            if (!Files.isWritable(dataDir)) {
                throw new StartupException(option + "not writable");
            }
            channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new StartupException(option + "not a directory", e); // a parent is a file
        } catch (IOException e) {
            throw new StartupException(option + "not writable", e);
        }
        try {
            FileLock lock = tryLock(channel);
            if (lock == null) {
                throw new StartupException(option + "in use by another server" + owner(file));
            }
            channel.truncate(0)
                    .write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
            return new DataDirLock(channel);
        } catch (IOException e) {
            close(channel);
            throw new StartupException(option + "cannot lock " + file + ": " + e.getMessage(), e);
        } catch (StartupException e) {
            close(channel);
            throw e;
        }
    }

    /** The lock, or {@code null} if another process, or another server in this JVM, holds it. */
    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null;
        }
    }

    /** {@code " (pid N)"} from the lock file, or nothing if it does not say. */
    private static String owner(Path file) {
        try {
            String pid = Files.readString(file, StandardCharsets.US_ASCII).strip();
            return pid.matches("[0-9]{1,19}") ? " (pid " + pid + ")" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing was locked, or closing releases it anyway
        }
    }

    /** Releases the lock. */
    @Override
    public void close() {
        close(channel);
    }
}
