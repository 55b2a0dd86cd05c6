package io.hexstream.jmh.e2e;

import io.hexstream.codec.json.JsonBody;
import io.hexstream.codec.json.JsonBodyInput;
import io.hexstream.server.http.Responder;
import io.hexstream.server.metrics.ResponseSummary;
import io.hexstream.server.rpc.Replies;
import io.hexstream.server.rpc.ResponseRenderer;
import io.hexstream.server.rpc.ResponseWriter;
import io.hexstream.server.rpc.RpcReply;
import io.hexstream.server.rpc.RpcResult;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * The transport floor: the exact response bytes, rendered once per request shape (getBlobsV2 of a blob count,
 * getBlobsV4 of a blob count and cell count; {@link RenderedShapes}) the first time it is seen (during warm-up, before
 * timing), then written from one direct buffer with {@code retainedDuplicate()}: no encoding at all on the timed path,
 * and no reply body built (a shape already rendered is found from the method's result, before its reply would be
 * written). {@link SendfileRenderer} serves the same bytes from files.
 */
final class PrerenderedRenderer implements ResponseRenderer, AutoCloseable {
    private final ResponseWriter writer = new ResponseWriter();
    private final RenderedShapes<ByteBuf> rendered = new RenderedShapes<>(r -> render(writer, r), ByteBuf::release);

    @Override
    public RpcReply reply(byte[] id, RpcResult result) {
        return rendered.reply(id, result);
    }

    @Override
    public void render(Replies replies, Responder responder) {
        ResponseSummary summary = replies.summary();
        ByteBuf bytes = rendered.rendered(replies);
        responder.respond(
                BesuWholeBodyRenderer.withHeaders(
                        responder.keepAlive(),
                        new DefaultFullHttpResponse(
                                responder.version(), HttpResponseStatus.OK, bytes.retainedDuplicate())),
                bytes.readableBytes(),
                summary);
    }

    /**
     * {@code replies}' exact body, as {@code writer} streams it, in one new direct buffer (the caller's to release);
     * takes the replies over.
     */
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
        rendered.all().forEach(ByteBuf::release);
        rendered.clear();
    }
}
