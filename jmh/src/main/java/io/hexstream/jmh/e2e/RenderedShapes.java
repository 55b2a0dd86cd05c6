package io.hexstream.jmh.e2e;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.engine.BlobCellsAndProofsV1;
import io.hexstream.server.engine.BlobsResult;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.rpc.RpcResult;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a floor renderer ({@link PrerenderedRenderer}, {@link SendfileRenderer}) holds per request shape: the response
 * rendered the first time the shape is seen (during warm-up), then found again before any reply body is built. Its
 * {@link #reply} stands in for {@link io.hexstream.server.rpc.ResponseRenderer#reply}: a getBlobs result whose shape is
 * held gets a reply that only names the shape ({@code "result":null}, with the result's tally), so the timed path
 * builds no body of 128 entries to throw away; any other result gets the server's reply, keyed by its exact length. The
 * response cap then counts the stand-in's length, not the bytes sent: the benchmark's responses are far below it.
 *
 * @param <T> what is held per shape
 */
final class RenderedShapes<T> {
    private final Map<Object, T> held = new ConcurrentHashMap<>();
    private final Function<Replies, T> render;
    private final Consumer<T> discard;

    /**
     * @param render renders the replies' bytes, taking the replies over
     * @param discard gives back what {@code render} made, when another thread's is kept
     */
    RenderedShapes(Function<Replies, T> render, Consumer<T> discard) {
        this.render = render;
        this.discard = discard;
    }

    /**
     * A getBlobs request's shape: the request's id, how each entry is written (V4: how many cells), how many entries,
     * how many missing, how many with extension cells, and the tally. The driver's requests of one shape ask for the
     * same cells, so these fix the reply's bytes.
     */
    private record Shape(String id, Class<?> form, int cells, int entries, int missing, int extended, Tally tally)
            implements RpcResult {

        /** {@code result}'s shape, or {@code null} unless it is a getBlobs result with a list. */
        static Shape of(byte[] id, RpcResult result) {
            if (!(result instanceof BlobsResult blobs) || blobs.entries() == null) {
                return null;
            }
            int missing = 0;
            int extended = 0;
            for (BlobEntry entry : blobs.entries()) {
                if (entry == null) {
                    missing++;
                } else if (entry.extensionCells() != null) {
                    extended++;
                }
            }
            int cells = blobs.shape() instanceof BlobCellsAndProofsV1 v4
                    ? v4.cells().count()
                    : -1;
            return new Shape(
                    new String(id, StandardCharsets.UTF_8),
                    blobs.shape().getClass(),
                    cells,
                    blobs.entries().size(),
                    missing,
                    extended,
                    blobs.tally());
        }

        /** The stand-in's result: never sent, its shape's bytes are. */
        @Override
        public void write(JsonBodyBuilder b) {
            b.nullValue();
        }
    }

    /** The reply to {@code result}: a stand-in naming its shape if that is held, else the server's reply. */
    RpcReply reply(byte[] id, RpcResult result) {
        Shape shape = Shape.of(id, result);
        return RpcReply.success(id, shape != null && held.containsKey(shape) ? shape : result);
    }

    /**
     * What is held for the shape of {@code replies}' first reply, rendered from them the first time; takes the replies
     * over (released when something is held already).
     */
    T rendered(Replies replies) {
        RpcReply first = replies.replies().get(0);
        Object key = first.result() instanceof Shape stand ? stand : Shape.of(first.id(), first.result());
        if (key == null) {
            key = first.length();
        }
        T found = held.get(key);
        if (found != null) {
            replies.release();
            return found;
        }
        T mine = render.apply(replies);
        found = held.putIfAbsent(key, mine);
        if (found == null) {
            return mine;
        }
        discard.accept(mine); // another thread rendered it first
        return found;
    }

    /** Everything held, for closing. */
    Collection<T> all() {
        return held.values();
    }

    void clear() {
        held.clear();
    }
}
