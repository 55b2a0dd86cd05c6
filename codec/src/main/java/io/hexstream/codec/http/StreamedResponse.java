package io.hexstream.codec.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.stream.ChunkedInput;
import io.netty.util.ReferenceCounted;

/**
 * An HTTP response whose body has an exact length known before its first byte, written to a channel with a
 * {@link StreamedResponseEncoder}: the head says {@code Content-Length}, and the body is produced chunk by chunk as the
 * socket drains. {@link JsonResponse} is one (a JSON body); a binary container streamed from a typed
 * {@link ChunkedInput} is another.
 *
 * <p>Ownership: reference-counted like any message; whoever drops it unwritten releases it (Netty does so for messages
 * it discards). {@link #bodyInput(int)} hands the reference on to the input it returns.
 */
public interface StreamedResponse extends ReferenceCounted {

    /** The request's protocol version. */
    HttpVersion version();

    HttpResponseStatus status();

    /** Whether the connection stays open after this response; if not, it is closed after the last byte. */
    boolean keepAlive();

    /** The {@code Content-Type} header's value. */
    CharSequence contentType();

    /** The body's exact length in bytes: the {@code Content-Length}, and the sum of the input's chunks. */
    long contentLength();

    /**
     * The body as chunks of at most {@code chunkSize} bytes ({@link #contentLength()} in all), each a buffer the caller
     * releases. Takes this response's reference: closing the input releases what it holds, and the caller releases
     * nothing else, also when this method throws.
     *
     * @param chunkSize at least {@link StreamedResponseEncoder#MIN_CHUNK_SIZE}
     */
    ChunkedInput<ByteBuf> bodyInput(int chunkSize);
}
