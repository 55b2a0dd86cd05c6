package io.hexstream.server.exchange;

import io.netty.buffer.ByteBuf;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.ReferenceCounted;

/**
 * The body of a reply whose exact length is known before its first byte, produced chunk by chunk as the transport
 * drains: an HTTP/1.1 response's content after its {@code Content-Length}, a WebSocket or IPC message's frames, an
 * HTTP/2 stream's DATA frames. The bytes are the same whichever carries them.
 *
 * <p>Ownership: reference-counted; whoever drops it unsent releases it. {@link #bodyInput(int)} hands the reference on
 * to the input it returns.
 */
public interface ReplyBody extends ReferenceCounted {

    /** The body's media type, e.g. {@code application/json}: HTTP's {@code Content-Type}. */
    CharSequence contentType();

    /** The body's exact length in bytes: the sum of the input's chunks. */
    long contentLength();

    /**
     * The body as chunks of at most {@code chunkSize} bytes ({@link #contentLength()} in all), each a buffer the caller
     * releases. Takes this body's reference: closing the input releases what it holds, and the caller releases nothing
     * else, also when this method throws.
     *
     * @param chunkSize at least {@link io.hexstream.codec.http.StreamedResponseEncoder#MIN_CHUNK_SIZE}
     */
    ChunkedInput<ByteBuf> bodyInput(int chunkSize);
}
