package io.hexstream.server.cli;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of one response under {@code --out DIR}: each written to a temporary file in {@code DIR} as its entry
 * arrives, and moved to its name ({@code <hash>.blob}, {@code <hash>.proofs}, {@code <hash>.cell-<index>},
 * {@code <hash>.proof-<index>}) only by {@link #commit()}, once the whole response is known to be well-formed;
 * {@link #abort()} deletes them. So a file under its name always holds the bytes of a well-formed response.
 * Thread-safe: entries are written by several threads.
 */
final class ResponseFiles {
    private final Path dir;
    /** Pairs of a temporary file and its name, in the order written. */
    private final List<Path[]> written = new ArrayList<>();

    ResponseFiles(Path dir) {
        this.dir = dir;
    }

    /**
     * Writes {@code length} bytes of {@code buf} from {@code index} to a temporary file for {@code name}. The buffer
     * stays the caller's.
     */
    void write(String name, ByteBuf buf, int index, int length) throws IOException {
        Path temp = Files.createTempFile(dir, ".probe-", ".part");
        synchronized (this) {
            written.add(new Path[] {temp, dir.resolve(name)});
        }
        try (FileChannel file = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            ByteBuffer bytes = buf.nioBuffer(index, length);
            while (bytes.hasRemaining()) {
                file.write(bytes);
            }
        }
    }

    /** Moves every file written into place (replacing an earlier one of the same name). */
    synchronized void commit() throws IOException {
        for (Path[] file : written) {
            try {
                Files.move(file[0], file[1], StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(file[0], file[1], StandardCopyOption.REPLACE_EXISTING);
            }
        }
        written.clear();
    }

    /** Deletes every temporary file written. */
    synchronized void abort() {
        for (Path[] file : written) {
            try {
                Files.deleteIfExists(file[0]);
            } catch (IOException e) {
                // nothing better to do: the name was never given to it
            }
        }
        written.clear();
    }
}
