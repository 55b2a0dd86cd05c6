package io.hexstream.client;

import io.hexstream.codec.http.HttpResponseConsumer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.CompletableFuture;

/**
 * The response to one REST getBlobs request, read as it arrives: {@code 200} an SSZ body read by an
 * {@link SszBlobsReader}; {@code 204 No Content} the server cannot serve (V2: a blob is missing), told to the listener
 * as a {@code null} result; any other status fails the call with a {@link BadResponseException} of one line, its status
 * and the server's reason ({@link RefusedResponse}): {@code HTTP 413 request-too-large: 129 versioned hashes, at most
 * 128}.
 *
 * <p>Ownership: as {@link SszBlobsReader}'s. Called on the connection's event loop only.
 */
final class SszBlobsResponse implements HttpResponseConsumer {
    private final GetBlobsCall call;
    private final BlobsListener listener;
    private final long start;
    private final SszBlobsReader reader;
    private final CompletableFuture<BlobsOutcome> outcome = new CompletableFuture<>();

    private long toHead;
    private HttpResponseStatus status;
    private RefusedResponse refused;

    SszBlobsResponse(GetBlobsCall call, BlobsListener listener, ByteBufAllocator allocator, long start) {
        this.call = call;
        this.listener = listener;
        this.start = start;
        this.reader = new SszBlobsReader(call, listener, allocator, start);
    }

    /** Completes with the outcome once the response has ended, or fails. */
    CompletableFuture<BlobsOutcome> outcome() {
        return outcome;
    }

    @Override
    public void head(HttpResponse head) {
        toHead = System.nanoTime() - start;
        status = head.status();
        if (status.code() == HttpResponseStatus.NO_CONTENT.code()) {
            listener.nullResult();
        } else if (status.code() != HttpResponseStatus.OK.code()) {
            refused = new RefusedResponse(head);
        }
    }

    @Override
    public void content(ByteBuf chunk) {
        if (refused != null) {
            refused.add(chunk);
        } else if (status.code() == HttpResponseStatus.OK.code()) {
            reader.feed(chunk);
        } else if (chunk.isReadable()) {
            throw new BadResponseException("HTTP 204 with a body");
        }
    }

    @Override
    public void complete() {
        long toLastByte = System.nanoTime() - start;
        if (refused != null) {
            throw new BadResponseException(refused.line());
        }
        if (status.code() == HttpResponseStatus.OK.code()) {
            reader.end();
        }
        outcome.complete(new BlobsOutcome(
                call.hashes().size(),
                reader.available(),
                reader.bodyBytes(),
                toHead,
                reader.toFirstBlob(),
                toLastByte));
    }

    @Override
    public void failed(Throwable cause) {
        reader.release();
        outcome.completeExceptionally(cause);
    }
}
