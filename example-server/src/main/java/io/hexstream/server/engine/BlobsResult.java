package io.hexstream.server.engine;

import io.hexstream.codec.json.JsonBodyBuilder;
import io.hexstream.server.blob.BlobEntry;
import io.hexstream.server.cache.EncodedEntry;
import io.hexstream.server.cache.HexCache;
import io.hexstream.server.metrics.Tally;
import io.hexstream.server.rpc.RpcResult;
import java.util.List;

/**
 * A getBlobs result: the JSON array of {@code entries}, each written in its {@link BlobShape}, {@code null} where an
 * entry is; or, for a {@code null} list, the literal {@code null} (getBlobsV2 when a blob is missing). With a
 * {@link HexCache} that holds every entry, they are written from their cached elements (retained slices, nothing
 * encoded, as far as the shape can use them); otherwise encoded as the body is produced. The bytes are the same.
 *
 * @param entries the entries in request order, {@code null} where missing; {@code null}: the {@code null} result
 * @param shape how each entry is written
 * @param cache where cached elements come from; {@code null}: none
 * @param tally what the call counts toward its HTTP response's summary
 */
public record BlobsResult(List<BlobEntry> entries, BlobShape shape, HexCache cache, Tally tally) implements RpcResult {

    @Override
    public void write(JsonBodyBuilder b) {
        if (entries == null) {
            b.nullValue();
            return;
        }
        EncodedEntry[] cached = cache != null ? cache.retainAll(entries) : null;
        try {
            b.beginArray();
            for (int i = 0; i < entries.size(); i++) {
                BlobEntry entry = entries.get(i);
                if (entry == null) {
                    b.nullValue();
                } else {
                    shape.write(b, entry, cached != null ? cached[i] : null);
                }
            }
            b.endArray();
        } finally {
            HexCache.releaseAll(cached); // the body retained what it keeps
        }
    }
}
