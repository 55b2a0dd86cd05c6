package io.hexstream.codec.vertx;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An {@link OutputStream} whose bytes become the body of a Vert.x {@link HttpServerResponse}, for a serializer that
 * writes into a stream (Jackson's {@code ObjectWriter.writeValue(OutputStream, …)}) on a worker thread, as Besu's
 * {@code JsonRpcObjectExecutor} does behind a {@code blockingHandler}.
 *
 * <p>Bytes are copied into a pooled direct chunk of {@code chunkSize} bytes; a full chunk, or what {@link #flush()}
 * finds, is handed to Vert.x as it is ({@link Buffer#buffer(ByteBuf)} wraps it, no copy) and released when its write
 * completes or fails. The body goes out with chunked transfer encoding (RFC 9112 §7.1) unless the caller set a
 * {@code Content-Length} before the first chunk, which must then be the body's exact length. Status and headers are the
 * caller's, set before the first chunk goes. {@link #close()} hands on what is left and ends the response.
 *
 * <p>Back-pressure: before handing on a chunk the writing thread waits while the response's
 * {@link HttpServerResponse#writeQueueFull() write queue is full} (resumed by its drain handler) and while its previous
 * chunk is still being written (writes from a worker reach the channel through the event loop's task queue, which
 * {@code writeQueueFull()} does not count). So a reader that stalls holds at most the write queue's maximum (for
 * HTTP/1.x, the channel's high water mark) plus two chunks: one being written, one being filled. A wait longer than the
 * drain timeout ({@link #DEFAULT_DRAIN_TIMEOUT}, or {@link #drainTimeout(Duration)}) resets the response and the write
 * throws an {@link IOException}; for HTTP/1.x Vert.x then closes the connection once what it holds is written, or when
 * the connection fails or times out idle, and the chunk it holds is released then.
 *
 * <p>Threads: one thread writes, never an event loop: the constructor refuses one with an {@link IllegalStateException}
 * (it would have to block it), so call it from {@code executeBlocking}, a {@code blockingHandler}, a worker verticle or
 * any thread of your own. The handlers it sets run on the event loop.
 *
 * <p>Errors: a connection closed by the peer, a failed write or a reset makes the next write, {@code flush()} or
 * {@code close()} throw an {@link IOException}; a stream that failed or closed stays so. Ownership: every chunk is
 * released on every path (written, failed, closed, timed out). Sets the response's {@code drainHandler},
 * {@code closeHandler} and {@code exceptionHandler}.
 */
public final class VertxResponseOutputStream extends OutputStream {
    /**
     * Default chunk size, {@link VertxJsonBodyWriter#DEFAULT_CHUNK_SIZE} (256 KiB): Vert.x allocates a few hundred
     * bytes of heap per write, so fewer, larger chunks allocate less.
     */
    public static final int DEFAULT_CHUNK_SIZE = VertxJsonBodyWriter.DEFAULT_CHUNK_SIZE;
    /** Largest chunk size taken: 16 MiB. */
    public static final int MAX_CHUNK_SIZE = 16 << 20;
    /** How long one write waits for the write queue to drain before the response is reset: 30 seconds. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private final HttpServerResponse response;
    private final ByteBufAllocator allocator;
    private final int chunkSize;
    private final byte[] single = new byte[1];
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled on a drain, a completed write and a failure. */
    private final Condition changed = lock.newCondition();
    /** Counts the signals, so that one arriving while the writer asks {@code writeQueueFull()} is not lost. */
    private volatile long events;
    /** Why the stream can write no more: a closed connection, a failed write, a reset; set once. */
    private volatile Throwable failure;
    /** Bytes handed to Vert.x whose write has not completed; guarded by {@code lock}. */
    private long inFlight;

    private long drainTimeoutNanos = DEFAULT_DRAIN_TIMEOUT.toNanos();
    /** The chunk being filled, or {@code null}; the writing thread's. */
    private ByteBuf chunk;

    private boolean started;
    private boolean closed;

    /**
     * A stream into {@code response} in chunks of {@link #DEFAULT_CHUNK_SIZE} from {@link ByteBufAllocator#DEFAULT}.
     *
     * @throws IllegalStateException on an event loop thread, or if the response has already ended
     */
    public VertxResponseOutputStream(HttpServerResponse response) {
        this(response, ByteBufAllocator.DEFAULT, DEFAULT_CHUNK_SIZE);
    }

    /**
     * A stream into {@code response} in direct chunks of {@code chunkSize} bytes from {@code allocator}.
     *
     * @throws IllegalArgumentException if {@code chunkSize} is not within 1 to {@link #MAX_CHUNK_SIZE}
     * @throws IllegalStateException on an event loop thread, or if the response has already ended
     */
    public VertxResponseOutputStream(HttpServerResponse response, ByteBufAllocator allocator, int chunkSize) {
        this.response = Objects.requireNonNull(response, "response");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        if (chunkSize < 1 || chunkSize > MAX_CHUNK_SIZE) {
            throw new IllegalArgumentException("chunkSize " + chunkSize + " not within 1 to " + MAX_CHUNK_SIZE);
        }
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("VertxResponseOutputStream waits for the write queue to drain, which an"
                    + " event loop must not: write from a worker (executeBlocking, a blockingHandler)");
        }
        this.chunkSize = chunkSize;
        response.drainHandler(v -> signal(null))
                .closeHandler(v -> signal(new IOException("connection closed by the peer")))
                .exceptionHandler(this::signal);
        if (response.closed()) {
            signal(new IOException("connection closed by the peer"));
        }
    }

    /**
     * Sets how long one write waits for the write queue to drain ({@link #DEFAULT_DRAIN_TIMEOUT} unless set); call it
     * before the first write.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public VertxResponseOutputStream drainTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("drain timeout " + timeout + " is not positive");
        }
        drainTimeoutNanos = timeout.toNanos();
        return this;
    }

    @Override
    public void write(int b) throws IOException {
        single[0] = (byte) b;
        write(single, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        checkOpen();
        while (length > 0) {
            if (chunk == null) {
                chunk = allocator.directBuffer(chunkSize, chunkSize);
            }
            int n = Math.min(length, chunk.writableBytes());
            chunk.writeBytes(bytes, offset, n);
            offset += n;
            length -= n;
            if (!chunk.isWritable()) {
                send(false);
            }
        }
    }

    /** Hands the bytes written since the last chunk went to Vert.x, if any; waits for room as a write does. */
    @Override
    public void flush() throws IOException {
        if (chunk != null && chunk.isReadable()) {
            checkOpen();
            send(false);
        }
    }

    /**
     * Hands on what is left and ends the response; the end is written asynchronously. Does nothing if already closed.
     *
     * @throws IOException if the stream had failed (the connection closed, a write failed, a drain timed out) or fails
     *     now; what it held is released all the same
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        checkOpen();
        closed = true;
        send(true);
    }

    /** Throws if the stream can take no more bytes, releasing the chunk being filled. */
    private void checkOpen() throws IOException {
        Throwable failed = failure;
        if (failed != null || closed) {
            closed = true;
            if (chunk != null) {
                chunk.release();
                chunk = null;
            }
            throw failed == null ? new IOException("stream closed") : asIOException(failed);
        }
    }

    /** Waits for room, then writes the chunk being filled (and with {@code last}, ends the response). */
    private void send(boolean last) throws IOException {
        ByteBuf out = chunk;
        chunk = null;
        try {
            awaitRoom();
        } catch (IOException e) {
            closed = true;
            if (out != null) {
                out.release();
            }
            throw e;
        }
        int bytes = out == null ? 0 : out.readableBytes();
        addInFlight(bytes);
        Future<Void> written;
        try {
            if (!started) {
                started = true;
                if (!response.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
                    response.setChunked(true);
                }
            }
            Buffer buffer = out == null ? null : Buffer.buffer(out);
            written = last ? (buffer == null ? response.end() : response.end(buffer)) : response.write(buffer);
        } catch (RuntimeException e) { // the response ended or its connection closed under us
            if (out != null) {
                out.release();
            }
            completed(bytes, e);
            closed = true;
            throw asIOException(e);
        }
        written.onComplete(result -> {
            if (out != null) {
                out.release();
            }
            completed(bytes, result.cause());
        });
    }

    /**
     * Returns once the write queue has room and no chunk of this stream is being written; throws if the stream failed
     * meanwhile or the drain timeout passed (then resetting the response).
     */
    private void awaitRoom() throws IOException {
        long deadline = System.nanoTime() + drainTimeoutNanos;
        while (true) {
            long seen = events;
            boolean full;
            try {
                full = response.writeQueueFull(); // Vert.x locks the connection: not under our lock
            } catch (RuntimeException e) { // the response was ended by someone else
                signal(e);
                full = true;
            }
            lock.lock();
            try {
                if (failure != null) {
                    throw asIOException(failure);
                }
                if (!full && inFlight == 0) {
                    return;
                }
                if (events == seen) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    changed.awaitNanos(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw giveUp(new InterruptedIOException("interrupted while waiting for the write queue to drain"));
            } finally {
                lock.unlock();
            }
        }
        throw giveUp(new IOException("the write queue did not drain within "
                + TimeUnit.NANOSECONDS.toMillis(drainTimeoutNanos) + " ms; the response is reset"));
    }

    /** Fails the stream with {@code cause} and resets the response; returns {@code cause} to throw. */
    private IOException giveUp(IOException cause) {
        signal(cause);
        try {
            response.reset();
        } catch (RuntimeException e) { // already closed
            cause.addSuppressed(e);
        }
        return cause;
    }

    private void addInFlight(int bytes) {
        lock.lock();
        try {
            inFlight += bytes;
        } finally {
            lock.unlock();
        }
    }

    /** A write of {@code bytes} ended, failed if {@code cause} is not {@code null}. */
    private void completed(int bytes, Throwable cause) {
        lock.lock();
        try {
            inFlight -= bytes;
        } finally {
            lock.unlock();
        }
        signal(cause);
    }

    /** Wakes the writer: something changed; with a {@code cause}, the stream has failed (the first cause stays). */
    private void signal(Throwable cause) {
        lock.lock();
        try {
            if (cause != null && failure == null) {
                failure = cause;
            }
            events++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private static IOException asIOException(Throwable cause) {
        return cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
    }
}
