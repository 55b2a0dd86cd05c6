package io.hexstream.server.testing;

import io.hexstream.server.pool.StoreFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The platform's {@link StoreFiles} ({@link StoreFiles#SYSTEM}), each operation recorded in order with the file names
 * it was given and the thread it ran on; one kind of operation can be made to fail ({@link #failing}) with an
 * {@link IOException}, before it runs.
 */
public final class RecordingStoreFiles implements StoreFiles {
    /** The operations, as {@link Call#op()} names them. */
    public enum Op {
        WRITE,
        FORCE,
        RENAME,
        FORCE_DIRECTORY,
        DELETE
    }

    /** One operation: what, on which file names ({@code to} only for a rename), on which thread. */
    public record Call(Op op, String file, String to, String thread) {
        @Override
        public String toString() {
            return op + " " + file + (to == null ? "" : " " + to);
        }
    }

    private final List<Call> calls = new ArrayList<>();
    private Op failing;

    /** From now on, {@code op} fails ({@code null}: none does). */
    public synchronized RecordingStoreFiles failing(Op op) {
        this.failing = op;
        return this;
    }

    /** The operations so far, in order. */
    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    /** {@link #calls()} as text, {@code "WRITE 000000000001-0x….blob.tmp"}, and forgets them. */
    public synchronized List<String> take() {
        List<String> taken = calls.stream().map(Call::toString).toList();
        calls.clear();
        return taken;
    }

    private synchronized void record(Op op, Path file, Path to) throws IOException {
        calls.add(new Call(
                op,
                file.getFileName().toString(),
                to == null ? null : to.getFileName().toString(),
                Thread.currentThread().getName()));
        if (op == failing) {
            throw new IOException("injected " + op + " failure");
        }
    }

    @Override
    public void write(Path file, byte[] bytes) throws IOException {
        record(Op.WRITE, file, null);
        SYSTEM.write(file, bytes);
    }

    @Override
    public void force(Path file) throws IOException {
        record(Op.FORCE, file, null);
        SYSTEM.force(file);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        record(Op.RENAME, from, to);
        SYSTEM.rename(from, to);
    }

    @Override
    public void forceDirectory(Path directory) throws IOException {
        record(Op.FORCE_DIRECTORY, directory, null);
        SYSTEM.forceDirectory(directory);
    }

    @Override
    public void delete(Path file) throws IOException {
        record(Op.DELETE, file, null);
        SYSTEM.delete(file);
    }
}
