package io.hexstream.jmh.e2e;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The stream Besu's JSON-RPC replies are serialised into, as
 * {@code ethereum/api/src/main/java/org/hyperledger/besu/ethereum/api/jsonrpc/JsonResponseStreamer.java}: the response
 * made chunked on the first write; every write (each ~8 KB flush of Jackson's buffer) copied into a new Vert.x heap
 * {@code Buffer} of its length and written with {@link HttpServerResponse#write(Buffer)}, first waiting, when the
 * response's write queue is full, for its drain handler (up to 60 s, then an {@link IOException}), as Besu's
 * {@code .../jsonrpc/StreamBackpressure.java} {@code awaitDrain} does (besu-eth/besu {@code 683880ba}); a failed write
 * stops the next one with an {@link IOException}; {@link #close()} ends the response. Not {@code BesuResponseStream}:
 * that one copies into Netty heap buffers, which Vert.x wraps once more per write, so it would be heavier than Besu
 * here.
 */
final class VertxResponseStreamer extends OutputStream {
    private static final long DRAIN_TIMEOUT_SECONDS = 60;

    private final HttpServerResponse response;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final byte[] single = new byte[1];
    private boolean chunked;
    private boolean closed;

    VertxResponseStreamer(HttpServerResponse response) {
        this.response = response;
        response.exceptionHandler(failure::set);
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (closed) {
            throw new IOException("stream closed");
        }
        Throwable failed = failure.get();
        if (failed != null) {
            throw failed instanceof IOException io ? io : new IOException(failed);
        }
        if (!chunked) {
            response.setChunked(true);
            chunked = true;
        }
        awaitDrain();
        response.write(Buffer.buffer(length).appendBytes(bytes, offset, length)).onFailure(failure::set);
    }

    /** Blocks this worker thread while the write queue is full, as {@code StreamBackpressure.awaitDrain}. */
    private void awaitDrain() throws IOException {
        if (response.writeQueueFull()) {
            CountDownLatch drained = new CountDownLatch(1);
            response.drainHandler(v -> drained.countDown());
            if (response.writeQueueFull()) {
                try {
                    if (!drained.await(DRAIN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                        throw new IOException("Timed out waiting for write queue to drain");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("Interrupted waiting for write queue to drain", e);
                }
            }
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            response.end();
        }
    }
}
