package io.hexstream.codec.body;

import io.netty.buffer.ByteBuf;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.ReferenceCounted;

/**
 * A body whose exact length in bytes is known before its first byte, produced chunk by chunk as the transport drains:
 * an HTTP/1.1 response's content after its {@code Content-Length}, a WebSocket or IPC message's frames, an HTTP/2
 * stream's DATA frames. The bytes are the same whichever carries them.
 *
 * <p>Ownership: reference-counted; whoever drops it unsent releases it (Netty does so for messages it discards).
 * {@link #bodyInput(int)} hands the reference on to the input it returns.
 */
public interface StreamedBody extends ReferenceCounted {
    /** The smallest chunk size every body's {@link #bodyInput(int)} accepts: 1 KiB. */
    int MIN_CHUNK_SIZE = 1024;

    /** The body's media type, e.g. {@code application/json}: HTTP's {@code Content-Type}. */
    CharSequence contentType();

    /** The body's exact length in bytes: HTTP's {@code Content-Length}, and the sum of the input's chunks. */
    long contentLength();

    /**
     * The body as chunks of at most {@code chunkSize} bytes ({@link #contentLength()} in all), each a buffer the caller
     * releases. Takes this body's reference: closing the input releases what it holds, and the caller releases nothing
     * else, also when this method throws.
     *
     * @param chunkSize bytes, at least {@link #MIN_CHUNK_SIZE}
     * @throws IllegalArgumentException if the body cannot be cut in chunks of {@code chunkSize} (its reference is then
     *     released)
     */
    ChunkedInput<ByteBuf> bodyInput(int chunkSize);
}
