package io.hexstream.client;

import io.hexstream.codec.http.JsonResponseConsumer;
import io.hexstream.codec.json.JsonHexReader;
import io.hexstream.codec.json.JsonTokenListener;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpResponse;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Reads one JSON-RPC response to a getBlobs call as it arrives, on Netty: the envelope by a
 * {@link JsonRpcResponseListener} (its {@code id} the request's), the result by a {@link BlobsResultListener} against
 * the call (its method, the hashes and the cells asked), each entry decoded into pooled direct buffers
 * ({@link PooledEntries}) and handed to the {@link BlobsListener} at its closing brace (over HTTP, a status other than
 * 200 is its {@link JsonBlobsResponse}'s); malformed JSON or a result of another shape with a
 * {@link GetBlobsResponseException} naming the path and the byte; a JSON-RPC error with a {@link RpcErrorException}. A
 * result longer than the hashes asked is refused at its first entry past them, before that entry is read.
 *
 * <p>Ownership: the buffers of the entry being read are released here if the response fails; those handed over are the
 * listener's. Called on the connection's event loop only.
 */
final class JsonBlobsReader implements JsonResponseConsumer {
    private final GetBlobsCall call;
    private final EntryHandover handover;
    private final JsonRpcResponseListener response;
    private final LongSupplier bodyBytes;
    private final long start;
    private final long maxBytes;
    private final CompletableFuture<BlobsOutcome> outcome = new CompletableFuture<>();

    /** The reader of the body, once it is made. */
    private JsonHexReader reader;

    private long toHead;

    JsonBlobsReader(
            GetBlobsCall call,
            long id,
            BlobsListener listener,
            ByteBufAllocator allocator,
            LongSupplier bodyBytes,
            long start) {
        this.call = call;
        this.bodyBytes = bodyBytes;
        this.start = start;
        this.handover = new EntryHandover(listener, start);
        int[] selected = call.selectedCells();
        this.response = new JsonRpcResponseListener(
                new BlobsResultListener(
                        call.method(),
                        call.hashes().size(),
                        selected.length,
                        new PooledEntries(handover, allocator, selected)),
                id);
        this.maxBytes = JsonReplySize.max(call);
    }

    /** Completes with the outcome once the response has ended, or fails. */
    CompletableFuture<BlobsOutcome> outcome() {
        return outcome;
    }

    @Override
    public JsonTokenListener head(HttpResponse head) {
        return begin(); // a 200's: other statuses are JsonBlobsResponse's
    }

    /** The reply's first bytes arrived (the head, or a message's first piece): returns the body's listener. */
    JsonTokenListener begin() {
        toHead = System.nanoTime() - start;
        return response;
    }

    @Override
    public void reading(JsonHexReader reader) {
        this.reader = reader;
    }

    /**
     * The reply has taken {@code bytes} so far: a fault past the most its call allows ({@link JsonReplySize}), for
     * replies framed as one message, whose length only the reader can bound.
     */
    void counted(long bytes) {
        if (bytes > maxBytes) {
            int hashes = call.hashes().size();
            throw new BadResponseException(String.format(
                    Locale.ROOT,
                    "a reply of more than %,d bytes, the most %s for %d versioned hash%s can take",
                    maxBytes,
                    call.method().methodName(),
                    hashes,
                    hashes == 1 ? "" : "es"));
        }
    }

    @Override
    public void complete() {
        long toLastByte = System.nanoTime() - start;
        if (response.isError()) {
            outcome.completeExceptionally(response.error());
        } else {
            outcome.complete(new BlobsOutcome(
                    call.hashes().size(),
                    handover.available(),
                    bodyBytes.getAsLong(),
                    toHead,
                    handover.toFirstBlob(),
                    toLastByte));
        }
    }

    @Override
    public void failed(Throwable cause) {
        handover.release();
        GetBlobsResponseException fault = reader == null ? null : ResponseFault.of(cause, reader);
        outcome.completeExceptionally(fault != null ? fault : cause);
    }
}
