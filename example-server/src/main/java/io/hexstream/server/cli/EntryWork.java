package io.hexstream.server.cli;

import io.hexstream.client.BlobAndProofs;
import io.hexstream.client.BlobSizes;
import io.hexstream.client.BlobsClient;
import io.hexstream.client.BlobsListener;
import io.hexstream.client.CellsAndProofs;
import io.hexstream.client.VersionedHash;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the probe does with each entry of one response, off the I/O thread: on the {@code worker}'s threads it writes
 * the entry's files ({@link ResponseFiles}) and checks it ({@link BlobCheck}), then releases its buffers. Memory is
 * bounded: once {@value #MAX_PENDING} entries wait for the worker, the client stops reading the socket until half of
 * them are done. The first fault found is kept, naming the entry ({@code result[3]: the cell proofs do not verify}).
 */
final class EntryWork implements BlobsListener {
    /** Entries handed over and not yet done: about 4.4 MiB of {@code BlobAndProofV2}s. */
    static final int MAX_PENDING = 16;

    private final List<VersionedHash> hashes;
    private final ResponseFiles files;
    private final boolean verify;
    private final ExecutorService worker;
    private final BlobsClient client;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicReference<String> fault = new AtomicReference<>();
    private final List<Future<?>> tasks = new ArrayList<>();

    /**
     * @param files where the entries go, or {@code null} for nowhere
     * @param verify whether each blob is checked
     */
    EntryWork(
            List<VersionedHash> hashes,
            ResponseFiles files,
            boolean verify,
            ExecutorService worker,
            BlobsClient client) {
        this.hashes = hashes;
        this.files = files;
        this.verify = verify;
        this.worker = worker;
        this.client = client;
    }

    @Override
    public void blob(int index, BlobAndProofs entry) {
        submit(
                index,
                () -> {
                    String hash = name(index);
                    if (files != null) {
                        files.write(
                                hash + ".blob",
                                entry.blob(),
                                entry.blob().readerIndex(),
                                entry.blob().readableBytes());
                        files.write(
                                hash + ".proofs",
                                entry.proofs(),
                                entry.proofs().readerIndex(),
                                entry.proofs().readableBytes());
                    }
                    return verify
                            ? BlobCheck.fault(hashes.get(index), bytes(entry.blob()), bytes(entry.proofs()))
                            : null;
                },
                entry::release);
    }

    @Override
    public void cells(int index, CellsAndProofs entry) {
        submit(
                index,
                () -> {
                    String hash = name(index);
                    int[] indices = entry.indices();
                    for (int k = 0; k < indices.length; k++) {
                        files.write(
                                hash + ".cell-" + indices[k],
                                entry.cells(),
                                entry.cells().readerIndex() + k * BlobSizes.CELL_SIZE,
                                BlobSizes.CELL_SIZE);
                        files.write(
                                hash + ".proof-" + indices[k],
                                entry.proofs(),
                                entry.proofs().readerIndex() + k * BlobSizes.PROOF_SIZE,
                                BlobSizes.PROOF_SIZE);
                    }
                    return null;
                },
                entry::release);
    }

    /** One entry's work, returning its fault or {@code null}. */
    private interface Task {
        String run() throws IOException;
    }

    private void submit(int index, Task task, Runnable release) {
        if (pending.incrementAndGet() == MAX_PENDING) {
            client.pause();
        }
        Future<?> done;
        try {
            done = worker.submit(() -> {
                try {
                    String wrong = task.run();
                    if (wrong != null) {
                        fault.compareAndSet(null, "result[" + index + "]: " + wrong);
                    }
                } catch (IOException e) {
                    fault.compareAndSet(null, "--out: " + e);
                } finally {
                    release.run();
                    if (pending.decrementAndGet() == MAX_PENDING / 2) {
                        client.resume();
                    }
                }
            });
        } catch (RejectedExecutionException e) { // the worker is shut down: the entry is dropped, not leaked
            release.run();
            pending.decrementAndGet();
            fault.compareAndSet(null, "result[" + index + "]: not checked: " + e.getMessage());
            return;
        }
        synchronized (this) {
            tasks.add(done);
        }
    }

    /** Waits until every entry handed over is done; returns the first fault, or {@code null}. */
    String await() throws InterruptedException {
        List<Future<?>> all;
        synchronized (this) {
            all = List.copyOf(tasks);
        }
        for (Future<?> task : all) {
            try {
                task.get();
            } catch (ExecutionException e) {
                fault.compareAndSet(null, e.getCause().toString());
            }
        }
        return fault.get();
    }

    /** A file's name stem: the versioned hash in lowercase hex without {@code 0x}. */
    private String name(int index) {
        return hashes.get(index).toString().substring(2);
    }

    private static byte[] bytes(ByteBuf buf) {
        return ByteBufUtil.getBytes(buf);
    }
}
