package io.hexstream.jmh.e2e;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.http.ResponseRenderer;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transport floor: the exact response bytes, rendered once per request shape (blob count) the
 * first time it is seen (during warm-up, before timing), then written from one direct buffer with
 * {@code retainedDuplicate()}: no encoding at all on the timed path.
 */
final class PrerenderedRenderer implements ResponseRenderer, AutoCloseable {
    private final Map<Integer, ByteBuf> rendered = new ConcurrentHashMap<>();
    private final ResponseWriter writer = new ResponseWriter();

    @Override
    public FullHttpResponse render(HttpVersion version, boolean keepAlive, Replies replies) {
        RpcResult.BlobsAndProofsV2 v2 = (RpcResult.BlobsAndProofsV2) replies.replies().get(0).result();
        ByteBuf bytes = rendered.computeIfAbsent(v2.entries().size(), n -> render(replies));
        return JacksonStringsRenderer.withHeaders(keepAlive,
                new DefaultFullHttpResponse(version, HttpResponseStatus.OK, bytes.retainedDuplicate()));
    }

    private ByteBuf render(Replies replies) {
        JsonBody body = writer.body(replies);
        ByteBuf all = Unpooled.directBuffer((int) body.length());
        JsonBodyInput input = new JsonBodyInput(body);
        try {
            for (ByteBuf chunk; (chunk = input.readChunk(ByteBufAllocator.DEFAULT)) != null; ) {
                all.writeBytes(chunk);
                chunk.release();
            }
        } finally {
            input.close();
        }
        return all;
    }

    @Override
    public void close() {
        rendered.values().forEach(ByteBuf::release);
        rendered.clear();
    }
}
