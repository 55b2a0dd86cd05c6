package io.hexstream.jmh.e2e;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.http.Responder;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The transport floor: the exact response bytes, rendered once per request shape (getBlobsV2 of a
 * blob count, getBlobsV4 of a blob count and cell count) the
 * first time it is seen (during warm-up, before timing), then written from one direct buffer with
 * {@code retainedDuplicate()}: no encoding at all on the timed path. {@link SendfileRenderer} serves the
 * same bytes from files.
 */
final class PrerenderedRenderer implements ResponseRenderer, AutoCloseable {
    private final Map<String, ByteBuf> rendered = new ConcurrentHashMap<>();
    private final ResponseWriter writer = new ResponseWriter();

    @Override
    public void render(Replies replies, Responder responder) {
        ByteBuf bytes = rendered.computeIfAbsent(shape(replies), n -> render(writer, replies));
        responder.respond(JacksonStringsRenderer.withHeaders(responder.keepAlive(), new DefaultFullHttpResponse(
                responder.version(), HttpResponseStatus.OK, bytes.retainedDuplicate())), bytes.readableBytes(),
                replies.exchange());
    }

    /** A request shape: the method's result and its blob count (and for V4 its cell count). */
    static String shape(Replies replies) {
        RpcResult result = replies.replies().get(0).result();
        if (result instanceof RpcResult.BlobCellsAndProofsV1 v4) {
            return "v4 " + v4.entries().size() + " " + v4.cells().count();
        }
        return "v2 " + ((RpcResult.BlobsAndProofsV2) result).entries().size();
    }

    /** {@code replies}' exact body, as {@code writer} streams it, in one new direct buffer (the caller's to release). */
    static ByteBuf render(ResponseWriter writer, Replies replies) {
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
